/** The local service's OpenRouter video shape (key `video-openrouter`): submit, polling_url, unsigned_urls, the ends. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMp4, sha } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import {
	expectInvalidRequest,
	expectModelRefused,
	getModels,
	getWith,
	pollUntil,
	send,
	statusesSeen,
	submitVideo,
	videoSubmit,
} from './client.cts';

const service = useLocalService();
const key = keys['video-openrouter'];

const png = readFileSync(
	join(__dirname, '..', '..', '..', 'dev', 'service', 'assets', 'pixel-2x3.png'),
);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

const submit = videoSubmit(service, key);

const terminal = ['completed', 'failed', 'cancelled', 'expired'];
const ended = (reply: { json: any }) => terminal.includes(reply.json.status);

describe('OpenRouter shape: POST /v1/videos, its polling_url, its unsigned_urls', () => {
	it('answers {id, polling_url, status: pending}, runs the job, then gives unsigned_urls and usage', async () => {
		const submitted = await submit({
			duration: 8,
			resolution: '720p',
			aspect_ratio: '16:9',
			seed: 7,
			generate_audio: true,
		});
		expect(submitted.status).toBe(200);
		const { id } = submitted.json;
		expect(submitted.json).toEqual({
			id: expect.stringMatching(/^vgen-/),
			polling_url: `${service().baseUrl}/videos/${id}`,
			status: 'pending',
		});
		const polls = await pollUntil(service(), submitted.json.polling_url, key, ended);
		expect(statusesSeen(polls)).toEqual(expect.arrayContaining(['in_progress', 'completed']));
		const done = polls.at(-1)!.json;
		expect(done).toEqual({
			id,
			polling_url: submitted.json.polling_url,
			status: 'completed',
			generation_id: expect.any(String),
			unsigned_urls: [`${service().baseUrl}/videos/${id}/content?index=0`],
			usage: { cost: 0.8, is_byok: false },
		});

		const video = await getWith(service(), done.unsigned_urls[0], key);
		expect(video.status).toBe(200);
		expect(video.headers.get('content-type')).toBe('application/octet-stream');
		expect(readMp4(video.bytes)).toMatchObject({
			seconds: 8,
			facts: {
				prompt: 'a red fox',
				resolution: '720p',
				aspect_ratio: '16:9',
				seed: '7',
				generate_audio: 'true',
			},
		});
		const withoutKey = await getWith(service(), done.unsigned_urls[0]);
		expect(withoutKey.status).toBe(401);
	});

	it('answers polling_url as a path with polling_url: relative', async () => {
		const submitted = await submit({}, { polling_url: 'relative' });
		expect(submitted.json.polling_url).toBe(`/v1/videos/${submitted.json.id}`);
		const poll = await getWith(service(), `${service().origin}${submitted.json.polling_url}`, key);
		expect(poll.json.status).toBe('pending');
	});

	it('takes the first frame as a data URL typed by its bytes, and refuses one labelled otherwise', async () => {
		const frame = (url: string) => ({
			frame_images: [{ type: 'image_url', image_url: { url }, frame_type: 'first_frame' }],
		});
		const submitted = await submit(frame(dataUrl('image/png', png)), { job_seconds: 0 });
		const video = await getWith(service(), `/videos/${submitted.json.id}/content`, key);
		expect(readMp4(video.bytes).facts.first_frame).toBe(`PNG 2x3 sha256:${sha(png)}`);

		const refused = await submit(frame(dataUrl('image/jpeg', png)));
		expectInvalidRequest(
			refused,
			'frame_images[0].image_url.url',
			/type image\/jpeg and a PNG image/,
			'invalid_image',
		);
	});

	it.each([
		['failed', { error: expect.stringContaining('could not be generated') }],
		['cancelled', {}],
		['expired', {}],
	])('ends a job %s', async (end, more) => {
		const submitted = await submit({}, { job_seconds: 0.2, end });
		const polls = await pollUntil(service(), `/videos/${submitted.json.id}`, key, ended);
		expect(polls.at(-1)!.json).toEqual({
			id: submitted.json.id,
			polling_url: submitted.json.polling_url,
			status: end,
			...more,
		});
		const content = await getWith(service(), `/videos/${submitted.json.id}/content`, key);
		expect(content.json.error).toMatchObject({ code: 'video_not_ready' });
	});

	it.each([
		[{ duration: '8' }, 'duration', /integer/],
		[{ resolution: '720' }, 'resolution', /Supported values/],
		[{ generate_audio: 'yes' }, 'generate_audio', /boolean/],
		[{ seconds: '8' }, 'seconds', /Unrecognized request argument/],
	])('refuses %j, naming %s', async (body, param, message) => {
		expectInvalidRequest(await submit(body), param, message);
	});

	it('refuses a model that makes no videos with a 404 naming it', async () => {
		expectModelRefused(
			await submit({ model: 'echo-1' }),
			404,
			'No endpoints found for echo-1 that support video generation',
		);
	});

	it('lists its video models at GET /v1/videos/models, and none in /v1/models in its shape', async () => {
		const listed = await getWith(service(), '/videos/models', key);
		expect(listed.json.data.map((model: { id: string }) => model.id)).toEqual(['video-1']);
		expect(listed.json.data[0]).toMatchObject({
			supported_frame_images: ['first_frame', 'last_frame'],
		});
		const models = await send(`${service().baseUrl}/models`, {
			headers: { Authorization: `Bearer ${key}`, 'x-local-models': 'openrouter' },
		});
		expect(models.json.data.map((model: { id: string }) => model.id)).toEqual(['echo-1']);
		const plain = await getModels(service(), key);
		expect(plain.json.data.map((model: { id: string }) => model.id)).toEqual(['echo-1', 'video-1']);
	});

	it('answers in its shape for another key that names it in x-local-video', async () => {
		const submitted = await submitVideo(
			service(),
			keys['video-openai'],
			{ model: 'video-1', prompt: 'a red fox' },
			'/videos',
			{ 'x-local-video': 'openrouter' },
		);
		expect(submitted.json).toMatchObject({ status: 'pending', polling_url: expect.any(String) });
		const bad = await submitVideo(service(), key, {}, '/videos', { 'x-local-video': 'sora' });
		expectInvalidRequest(bad, 'x-local-video', /must be one of openai, openrouter, new-api/);
	});
});
