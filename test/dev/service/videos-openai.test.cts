/** The local service's OpenAI video shape (key `video-openai`): submit, poll, download, their failures and knobs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMp4, sha } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import {
	expectInvalidRequest,
	formOf,
	getWith,
	pollUntil,
	postForm,
	statusesSeen,
	submitVideo,
	videoSubmit,
} from './client.cts';

const service = useLocalService();
const key = keys['video-openai'];

const asset = (name: string) =>
	readFileSync(join(__dirname, '..', '..', '..', 'dev', 'service', 'assets', name));

const submit = videoSubmit(service, key);

const finished = (reply: { json: any }) => ['completed', 'failed'].includes(reply.json.status);

describe('OpenAI shape: POST /v1/videos, GET /v1/videos/{id}, GET /v1/videos/{id}/content', () => {
	it('queues the job, tells its progress while it runs, completes it and serves the video', async () => {
		const submitted = await submit({ seconds: '8', size: '1280x720' });
		expect(submitted.status).toBe(200);
		expect(submitted.json).toMatchObject({
			id: expect.stringMatching(/^video_/),
			object: 'video',
			status: 'queued',
			model: 'video-1',
			progress: 0,
			seconds: '8',
			size: '1280x720',
		});
		const { id } = submitted.json;
		const polls = await pollUntil(service(), `/videos/${id}`, key, finished);
		expect(statusesSeen(polls)).toEqual(expect.arrayContaining(['in_progress', 'completed']));
		const running = polls.find((reply) => reply.json.status === 'in_progress')!;
		expect(running.json.progress).toBeGreaterThan(0);
		expect(running.json.progress).toBeLessThan(100);
		expect(polls.at(-1)!.json).toMatchObject({ status: 'completed', progress: 100, error: null });

		const video = await getWith(service(), `/videos/${id}/content`, key);
		expect(video.status).toBe(200);
		expect(video.headers.get('content-type')).toBe('application/octet-stream');
		expect(readMp4(video.bytes)).toEqual({
			boxes: ['ftyp', 'moov', 'free', 'mdat'],
			brand: 'isom',
			seconds: 8,
			facts: { id, model: 'video-1', prompt: 'a red fox', seconds: '8', size: '1280x720' },
		});
		const report = await service().videoJobs();
		expect(report.submits).toBe(1);
		expect(report.jobs).toEqual([
			expect.objectContaining({ id, key: 'video-openai', api: 'openai', downloads: 1 }),
		]);
		expect(report.jobs[0].polls).toHaveLength(polls.length);
	});

	it('defaults to 4 seconds at 720x1280', async () => {
		const submitted = await submit({});
		expect(submitted.json).toMatchObject({ seconds: '4', size: '720x1280' });
	});

	it('refuses the content while the job runs, saying its status, and for a job that failed', async () => {
		const { json } = await submit({}, { job_seconds: 30 });
		const early = await getWith(service(), `/videos/${json.id}/content`, key);
		expect(early.status).toBe(400);
		expect(early.json.error).toMatchObject({
			code: 'video_not_ready',
			message: expect.stringMatching(
				new RegExp(`^The video ${json.id} is not ready: its status is queued \\(progress 0%\\)`),
			),
		});

		const failing = await submit({}, { job_seconds: 0.2, end: 'failed' });
		const polls = await pollUntil(service(), `/videos/${failing.json.id}`, key, finished);
		expect(polls.at(-1)!.json).toMatchObject({
			status: 'failed',
			error: { code: 'video_generation_failed', message: expect.stringContaining('could not') },
		});
		const content = await getWith(service(), `/videos/${failing.json.id}/content`, key);
		expect(content.status).toBe(400);
		expect(content.json.error.message).toMatch(/has no content: its status is failed/);
	});

	it('takes the image as the multipart file part input_reference, checked by its bytes', async () => {
		const png = asset('pixel-2x3.png');
		const form = formOf(
			{ model: 'video-1', prompt: 'a red fox', seconds: '4', x_local: '{"job_seconds":0}' },
			[['input_reference', png, 'first.png', 'image/png']],
		);
		const submitted = await postForm(service(), '/videos', key, form);
		expect(submitted.status).toBe(200);
		const video = await getWith(service(), `/videos/${submitted.json.id}/content`, key);
		expect(readMp4(video.bytes).facts.input_reference).toBe(`PNG 2x3 sha256:${sha(png)}`);

		const jpeg = asset('grey-4x5.jpg');
		const mislabelled = formOf({ model: 'video-1', prompt: 'a red fox' }, [
			['input_reference', jpeg, 'first.png', 'image/png'],
		]);
		const refused = await postForm(service(), '/videos', key, mislabelled);
		expectInvalidRequest(refused, 'input_reference', /a JPEG image/, 'invalid_image');
	});

	it('takes the knobs of a multipart submit from the x-local-knobs header too', async () => {
		const form = formOf({ model: 'video-1', prompt: 'a red fox' });
		const submitted = await postForm(service(), '/videos', key, form, {
			'x-local-knobs': '{"end":"failed","job_seconds":0}',
		});
		const poll = await getWith(service(), `/videos/${submitted.json.id}`, key);
		expect(poll.json.status).toBe('failed');
	});

	it.each([
		[{ seconds: 8 }, 'seconds', /must be a string of whole seconds/],
		[{ seconds: '61' }, 'seconds', /at most "60"/],
		[{ size: '1280' }, 'size', /<width>x<height>/],
		[{ prompt: '' }, 'prompt', /non-empty string/],
		[{ duration: 8 }, 'duration', /Unrecognized request argument/],
	])('refuses %j, naming %s', async (body, param, message) => {
		expectInvalidRequest(await submit(body), param, message);
	});

	it('refuses a model that makes no videos, naming it, and counts the submit', async () => {
		expectInvalidRequest(
			await submit({ model: 'echo-1' }),
			'model',
			/^The model `echo-1` does not support video generation$/,
			'model_not_supported',
		);
		expect(await service().videoJobs()).toEqual({ submits: 1, jobs: [] });
	});

	it('refuses a prompt by the content policy (moderation_blocked)', async () => {
		const refused = await submit({}, { content_policy: true });
		expect(refused.status).toBe(400);
		expect(refused.json.error).toMatchObject({ code: 'moderation_blocked', param: 'prompt' });
	});

	it('answers no_id with a 200 that names no job, and makes none', async () => {
		const reply = await submit({}, { no_id: true });
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			object: 'video',
			status: 'queued',
			model: 'video-1',
			progress: 0,
			seconds: '4',
			size: '720x1280',
		});
		expect(await service().videoJobs()).toEqual({ submits: 1, jobs: [] });
	});

	it('answers a submit 429 with Retry-After (fail_first), then takes it: two submits, one job', async () => {
		const failFirst = { id: 'video-429', count: 1, status: 429, retry_after: '1' };
		const refused = await submit({}, { fail_first: failFirst });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('1');
		const taken = await submit({}, { fail_first: failFirst });
		expect(taken.status).toBe(200);
		const report = await service().videoJobs();
		expect(report.submits).toBe(2);
		expect(report.jobs.map((job) => job.id)).toEqual([taken.json.id]);
	});

	it('fails the first polls of a job with poll_fail (429 and Retry-After), then answers them', async () => {
		const { json } = await submit({}, { poll_fail: { count: 2, status: 429, retry_after: '0.2' } });
		const first = await getWith(service(), `/videos/${json.id}`, key);
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('0.2');
		expect((await getWith(service(), `/videos/${json.id}`, key)).status).toBe(429);
		const third = await getWith(service(), `/videos/${json.id}`, key);
		expect(third.status).toBe(200);
		const [job] = (await service().videoJobs()).jobs;
		expect(job.polls).toHaveLength(3);
	});

	it('closes the submit unanswered with lose_answer, though the job was made', async () => {
		await expect(submit({}, { lose_answer: true })).rejects.toThrow();
		const report = await service().videoJobs();
		expect(report.submits).toBe(1);
		expect(report.jobs).toHaveLength(1);
	});

	it("answers another key's job, or none, 404", async () => {
		const { json } = await submit({});
		const other = await getWith(service(), `/videos/${json.id}`, keys['video-newapi']);
		expect(other.status).toBe(404);
		expect(other.json.error).toMatchObject({ code: 'video_not_found' });
		expect((await getWith(service(), '/videos/video_none', key)).status).toBe(404);
	});

	it('answers no video route for a key without a video shape, and refuses end cancelled here', async () => {
		expect((await submitVideo(service(), keys.default, { model: 'video-1' })).status).toBe(404);
		expectInvalidRequest(await submit({}, { end: 'cancelled' }), 'x_local.end', /OpenRouter's/);
	});
});
