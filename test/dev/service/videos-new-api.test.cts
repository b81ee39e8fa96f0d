/** The local service's new-api video task API (key `video-newapi`): a task, its url on a storage that refuses the key. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMp4, sha } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import {
	expectInvalidRequest,
	expectModelRefused,
	getWith,
	pollUntil,
	statusesSeen,
	submitVideo,
	videoSubmit,
} from './client.cts';

const service = useLocalService();
const key = keys['video-newapi'];

const submit = videoSubmit(service, key, '/video/generations');

const ended = (reply: { json: any }) => ['succeeded', 'failed'].includes(reply.json.status);

describe("new-api's POST /v1/video/generations and GET /v1/video/generations/{task_id}", () => {
	it('answers {task_id, status}, then succeeded with a url on another origin that serves the video without the key', async () => {
		const submitted = await submit({ duration: 6, width: 1280, height: 720 });
		expect(submitted.status).toBe(200);
		expect(submitted.json).toEqual({ task_id: expect.stringMatching(/^task_/), status: 'queued' });
		const { task_id: id } = submitted.json;
		const polls = await pollUntil(service(), `/video/generations/${id}`, key, ended);
		expect(statusesSeen(polls)).toEqual(expect.arrayContaining(['in_progress', 'succeeded']));
		const { url } = polls.at(-1)!.json;
		const port = new URL(service().origin).port;
		expect(new URL(url).host).toBe(`localhost:${port}`);
		expect(new URL(url).pathname).toBe(`/__cdn/videos/${id}.mp4`);

		const video = await getWith(service(), url);
		expect(video.status).toBe(200);
		expect(video.headers.get('content-type')).toBe('video/mp4');
		expect(readMp4(video.bytes)).toMatchObject({ seconds: 6, facts: { id, size: '1280x720' } });

		const withKey = await getWith(service(), url, key);
		expect(withKey.status).toBe(403);
		expect(withKey.json.error).toMatchObject({ code: 'authorization_not_allowed' });
		const logged = (await service().requests()).filter((request) =>
			request.path.startsWith('/__cdn/'),
		);
		expect(logged.map((request) => request.headers.authorization)).toEqual([
			undefined,
			`Bearer ${key}`,
		]);
	});

	it('takes the image as a data URL typed by its bytes', async () => {
		const png = readFileSync(
			join(__dirname, '..', '..', '..', 'dev', 'service', 'assets', 'pixel-2x3.png'),
		);
		const image = `data:image/png;base64,${png.toString('base64')}`;
		const submitted = await submit({ image }, { job_seconds: 0 });
		const [poll] = await pollUntil(
			service(),
			`/video/generations/${submitted.json.task_id}`,
			key,
			ended,
		);
		const video = await getWith(service(), poll.json.url);
		expect(readMp4(video.bytes).facts.image).toBe(`PNG 2x3 sha256:${sha(png)}`);
	});

	it('fails a task with error {code, message}', async () => {
		const submitted = await submit({}, { job_seconds: 0.2, end: 'failed' });
		const polls = await pollUntil(
			service(),
			`/video/generations/${submitted.json.task_id}`,
			key,
			ended,
		);
		expect(polls.at(-1)!.json).toEqual({
			task_id: submitted.json.task_id,
			status: 'failed',
			error: { code: 'video_generation_failed', message: expect.any(String) },
		});
	});

	it.each([
		[{ width: 1280 }, 'height', /go together/],
		[{ duration: '5' }, 'duration', /number/],
		[{ image: 'https://example.com/a.png' }, 'image', /data URL/],
	])('refuses %j, naming %s', async (body, param, message) => {
		expectInvalidRequest(await submit(body), param, message);
	});

	it('refuses a model that makes no videos, naming it', async () => {
		expectModelRefused(await submit({ model: 'echo-1' }), 400, 'model echo-1 is not a video model');
	});

	it("serves OpenAI's /v1/videos too, as new-api does, and no task API for the other shapes", async () => {
		const openAi = await submitVideo(service(), key, { model: 'video-1', prompt: 'a red fox' });
		expect(openAi.json).toMatchObject({ object: 'video', status: 'queued' });
		const elsewhere = await submitVideo(
			service(),
			keys['video-openai'],
			{ model: 'video-1', prompt: 'a red fox' },
			'/video/generations',
		);
		expect(elsewhere.status).toBe(404);
	});
});
