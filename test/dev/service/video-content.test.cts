/** What a finished video job's download can be: a large MP4 streamed, a web page, JSON (the local service's knobs). */
import { keys, useLocalService } from '../../support/service.cts';
import { getWith, submitVideo } from './client.cts';

const service = useLocalService();
const key = keys['video-openai'];

async function finishedJob(knobs: Record<string, unknown>): Promise<string> {
	const submitted = await submitVideo(service(), key, {
		model: 'video-1',
		prompt: 'a red fox',
		x_local: { job_seconds: 0, ...knobs },
	});
	return submitted.json.id as string;
}

it('streams a 200 MB video (content_bytes) that starts with its ftyp box', async () => {
	const size = 200 * 1024 * 1024;
	const id = await finishedJob({ content_bytes: size });
	const response = await fetch(`${service().baseUrl}/videos/${id}/content`, {
		headers: { Authorization: `Bearer ${key}` },
	});
	expect(response.headers.get('content-length')).toBe(String(size));
	let received = 0;
	let first: Buffer | undefined;
	for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
		first ??= Buffer.from(chunk);
		received += chunk.length;
	}
	expect(received).toBe(size);
	expect(first!.toString('latin1', 4, 12)).toBe('ftypisom');
}, 60_000);

it.each([
	['html', 'text/html; charset=utf-8', /^<!DOCTYPE html>/],
	['json', 'application/json', /^\{"id":"video_/],
])('answers download %s with a 200 that is no video', async (download, type, body) => {
	const id = await finishedJob({ download });
	const reply = await getWith(service(), `/videos/${id}/content`, key);
	expect(reply.status).toBe(200);
	expect(reply.headers.get('content-type')).toBe(type);
	expect(reply.text).toMatch(body);
});

it('counts polls to the key rate limit, as every /v1 request', async () => {
	const id = await finishedJob({});
	await getWith(service(), `/videos/${id}`, key);
	const traffic = await service().traffic();
	expect(traffic['video-openai'].admitted).toBe(2);
});
