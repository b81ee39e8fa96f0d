/**
 * The Media node's Video resource through n8n's engine against the local service's three video shapes: the
 * job submitted once, polled with a growing interval (measured from the service's own counts), its video
 * downloaded and typed by its bytes; Max Wait, Wait for Completion off, the cancel, and each failure.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { binaryBytes, createEngine } from '../../dev/n8n-core/harness.cts';
import type { NodeSettings } from '../../dev/n8n-core/harness.cts';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { modelFromList } from '../support/chat-node.cts';
import { pngHeader } from '../support/images.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const TYPE = 'n8n-nodes-chat-completions.mediaChatCompletions';

type Shape = 'openai' | 'openrouter' | 'newapi';

/** Runs the node with the key of `shape`, the knobs sent as the x-local-knobs header (Extra Headers). */
async function run(
	parameters: INodeParameters,
	{
		shape = 'openai',
		knobs,
		items = [{ json: {} }],
		onError,
		signal,
	}: {
		shape?: Shape;
		knobs?: Record<string, unknown>;
		items?: INodeExecutionData[];
		onError?: NodeSettings['onError'];
		signal?: AbortSignal;
	} = {},
) {
	const headers = knobs === undefined ? {} : { 'x-local-knobs': JSON.stringify(knobs) };
	return await createEngine({
		nodeTypes: { [TYPE]: new MediaChatCompletions() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: {
			chatCompletionsApi: {
				apiKey: keys[`video-${shape}`],
				baseUrl: service().baseUrl,
				extraHeaders: JSON.stringify(headers),
			},
		},
	}).runNode({
		type: TYPE,
		parameters,
		items,
		...(onError === undefined ? {} : { settings: { onError } }),
		...(signal === undefined ? {} : { signal }),
	});
}

const API: Record<Shape, string> = { openai: 'openai', openrouter: 'openrouter', newapi: 'newApi' };

const generate = (shape: Shape, options: INodeParameters = {}): INodeParameters => ({
	resource: 'video',
	operation: 'generate',
	model: modelFromList('video-1'),
	prompt: 'a red fox',
	options: { videoApi: API[shape], ...options },
});

const errorOf = (error: unknown) => {
	const { message, description } = error as { message: string; description?: string };
	return `${message} ${description ?? ''}`;
};

describe('Generate a Video', () => {
	test.each(['openai', 'openrouter', 'newapi'] as const)(
		'%s: submits once, polls, downloads the MP4 as binary typed by its bytes, status completed',
		async (shape) => {
			const { outputs, error } = await run(generate(shape, { duration: 4 }), {
				shape,
				knobs: { job_seconds: 1.5 },
			});
			expect(error).toBeUndefined();
			const [item] = outputs[0];
			expect(item.json).toMatchObject({ status: 'completed', model: 'video-1' });
			expect(typeof item.json.id).toBe('string');
			expect(JSON.stringify(item.json)).not.toMatch(/AAAA/);
			expect(item.binary?.data).toMatchObject({
				mimeType: 'video/mp4',
				fileExtension: 'mp4',
				fileName: 'video_1.mp4',
			});
			const bytes = await binaryBytes(item.binary!.data);
			expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
			const report = await service().videoJobs();
			expect(report.submits).toBe(1);
			expect(report.jobs[0].downloads).toBe(1);
			expect(report.jobs[0].id).toBe(item.json.id);
		},
	);

	test('polls no sooner than 1 s after the submit, never two within 1 s, the interval growing', async () => {
		const { error } = await run(generate('openai'), { knobs: { job_seconds: 6 } });
		expect(error).toBeUndefined();
		const [job] = (await service().videoJobs()).jobs;
		const gaps = [
			job.polls[0] - job.submittedAt,
			...job.polls.slice(1).map((at, i) => at - job.polls[i]),
		];
		expect(gaps[0]).toBeGreaterThanOrEqual(950);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
		for (let i = 2; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1] - 50);
		expect(job.polls.length).toBeGreaterThan(3);
		expect(gaps.at(-1)!).toBeGreaterThanOrEqual(1.25 * gaps[0]);
		// Noticed no later than 5 s + half its time after it finished.
		expect(job.polls.at(-1)! - job.submittedAt).toBeLessThanOrEqual(6000 + 5000 + 3000);
	}, 30_000);

	test('all five items are submitted before the first job is done, polled side by side', async () => {
		const items = Array.from({ length: 5 }, () => ({ json: {} }));
		const { outputs, error } = await run(generate('openrouter'), {
			shape: 'openrouter',
			knobs: { job_seconds: 1.5 },
			items,
		});
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		const { jobs, submits } = await service().videoJobs();
		expect(submits).toBe(5);
		const lastSubmit = Math.max(...jobs.map((job) => job.submittedAt));
		const firstDone = Math.min(...jobs.map((job) => job.submittedAt)) + 1500;
		expect(lastSubmit).toBeLessThan(firstDone);
	});

	test('Wait for Completion off: the submit answer at once, nothing polled or downloaded', async () => {
		const { outputs, error } = await run(generate('openai', { waitForCompletion: false }));
		expect(error).toBeUndefined();
		expect(outputs[0][0].json).toEqual({ id: expect.any(String), status: 'queued' });
		expect(outputs[0][0].binary).toBeUndefined();
		const [job] = (await service().videoJobs()).jobs;
		expect(job.polls).toEqual([]);
		expect(job.downloads).toBe(0);
	});

	test('Max Wait reached is no error: the id, the last status and what to do, nothing downloaded', async () => {
		const started = Date.now();
		const { outputs, error } = await run(generate('openai', { maxWait: 2 }), {
			knobs: { job_seconds: 20 },
		});
		expect(error).toBeUndefined();
		expect(Date.now() - started).toBeLessThan(2000 + 5000);
		expect(outputs[0][0].json).toMatchObject({
			id: expect.any(String),
			status: expect.stringMatching(/queued|in_progress/),
			notFinished: expect.stringContaining("Get a Video's Status"),
		});
		expect((await service().videoJobs()).jobs[0].downloads).toBe(0);
	});

	test('a poll answered 429 is polled again no sooner than its Retry-After, the job not resubmitted', async () => {
		const { error } = await run(generate('openai'), {
			knobs: { job_seconds: 3, poll_fail: { count: 1, status: 429, retry_after: '2' } },
		});
		expect(error).toBeUndefined();
		const { submits, jobs } = await service().videoJobs();
		expect(submits).toBe(1);
		expect(jobs[0].polls[1] - jobs[0].polls[0]).toBeGreaterThanOrEqual(1950);
	}, 20_000);

	test('a submit answered 5xx is sent again (the service accepted nothing)', async () => {
		const { outputs, error } = await run(generate('openai'), {
			knobs: { job_seconds: 1, fail_first: { id: 'video-5xx', count: 1, status: 503 } },
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('completed');
		expect((await service().videoJobs()).submits).toBe(2);
	});

	test('a submit without an answer is not sent again: the error says a job may exist', async () => {
		// A kept connection first: one lost on it before any answer is what the transport would send again.
		await run(generate('openai', { waitForCompletion: false }));
		await service().clearRequests();
		const { error } = await run(generate('openai'), { knobs: { lose_answer: true } });
		expect(errorOf(error)).toMatch(/may have made the job, and billed it/);
		expect(errorOf(error)).not.toContain(keys['video-openai']);
		expect((await service().videoJobs()).submits).toBe(1);
	});

	test('a job that fails: the service message and code, the job id and the model', async () => {
		const { error } = await run(generate('openai'), { knobs: { end: 'failed', job_seconds: 1 } });
		const [job] = (await service().videoJobs()).jobs;
		expect(errorOf(error)).toContain(`The video job ${job.id} of the model "video-1" failed`);
	});

	test.each(['cancelled', 'expired'])('an OpenRouter job %s: an error naming it', async (end) => {
		const { error } = await run(generate('openrouter'), {
			shape: 'openrouter',
			knobs: { end, job_seconds: 1 },
		});
		expect(errorOf(error)).toContain(`ended ${end} without a video`);
	});

	test('content policy: the prompt was refused, reword it', async () => {
		const { error } = await run(generate('openai'), { knobs: { content_policy: true } });
		expect(errorOf(error)).toMatch(/content policy refused the prompt/);
		expect(errorOf(error)).toMatch(/Reword the prompt/);
	});

	test('a model that makes no videos: named, it cannot make videos', async () => {
		const { error } = await run({ ...generate('openai'), model: modelFromList('echo-1') });
		expect(errorOf(error)).toContain('echo-1');
		expect(errorOf(error)).toMatch(/make videos/);
	});

	test('a 200 submit without an id: an error, nothing polled', async () => {
		const { error } = await run(generate('openai'), { knobs: { no_id: true } });
		expect(errorOf(error)).toMatch(/without a job id/);
		expect((await service().videoJobs()).jobs).toEqual([]);
	});

	test('a download that is a web page: an error, no binary', async () => {
		const { error, outputs } = await run(generate('openai'), {
			knobs: { download: 'html', job_seconds: 1 },
		});
		expect(errorOf(error)).toMatch(/is a web page, not an MP4 or WebM video/);
		expect(outputs).toEqual([]);
	});

	test('new-api: the CDN download never gets the key', async () => {
		const { error } = await run(generate('newapi'), { shape: 'newapi', knobs: { job_seconds: 1 } });
		expect(error).toBeUndefined();
		const requests = await service().requests();
		const cdn = requests.filter((request) => request.path.includes('__cdn'));
		expect(cdn.length).toBe(1);
		expect(cdn[0].headers.authorization).toBeUndefined();
	});

	test('an Input Image field the item lacks: named with the fields it has, nothing sent', async () => {
		const png = (name: string) => ({
			json: {},
			binary: {
				[name]: { data: pngHeader(2, 3).toString('base64'), mimeType: 'image/png' },
			},
		});
		const { error } = await run(generate('openai', { inputImage: 'frame' }), {
			items: [png('photo'), png('frame')],
			knobs: { job_seconds: 1 },
		});
		expect(errorOf(error)).toMatch(/frame/);
		expect(errorOf(error)).toMatch(/photo/);
		expect((await service().videoJobs()).submits).toBe(0);
	});

	test('an Input Image goes as the multipart file part input_reference, typed by its bytes', async () => {
		const { error } = await run(generate('openai', { inputImage: 'frame' }), {
			items: [
				{
					json: {},
					binary: {
						frame: {
							data: pngHeader(2, 3).toString('base64'),
							mimeType: 'application/octet-stream',
						},
					},
				},
			],
			knobs: { job_seconds: 1 },
		});
		expect(error).toBeUndefined();
		expect((await service().videoJobs()).submits).toBe(1);
	});

	test('Continue On Fail: the failed item an error item in its place, the others unaffected', async () => {
		const items = [{ json: { prompt: 'a red fox' } }, { json: { prompt: '' } }];
		const { outputs, error } = await run(
			{ ...generate('openai'), prompt: '={{ $json.prompt }}' },
			{ onError: 'continueRegularOutput', items, knobs: { job_seconds: 1 } },
		);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.status).toBe('completed');
		expect(outputs[0][1].json.error).toMatch(/Prompt/);
	});

	test('the cancel stops polling at once: no request after it', async () => {
		const stop = new AbortController();
		const running = run(generate('openai'), { knobs: { job_seconds: 30 }, signal: stop.signal });
		await new Promise((resolve) => setTimeout(resolve, 2500));
		stop.abort();
		const stoppedAt = Date.now();
		await running;
		expect(Date.now() - stoppedAt).toBeLessThan(1000);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const [job] = (await service().videoJobs()).jobs;
		expect(job.polls.every((at) => at <= stoppedAt + 50)).toBe(true);
	}, 20_000);
});

describe('the Model list', () => {
	test("on OpenRouter's shape the list asks GET /videos/models too, and shows only video models", async () => {
		const engine = createEngine({
			nodeTypes: { [TYPE]: new MediaChatCompletions() },
			credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
			credentials: {
				chatCompletionsApi: {
					apiKey: keys['video-openrouter'],
					baseUrl: service().baseUrl,
					extraHeaders: JSON.stringify({ 'x-local-models': 'openrouter' }),
				},
			},
		});
		const { results } = await engine.listSearch({
			type: TYPE,
			method: 'searchModels',
			parameters: { resource: 'video', operation: 'generate' },
		});
		expect(results.map((entry) => entry.value)).toEqual(['video-1']);
		// The local service lists video-1 in /models too; that the video list is asked is what this sees.
		const paths = (await service().requests()).map((request) => request.path);
		expect(paths).toContain('/v1/videos/models');
	});
});

describe("Get a Video's Status and Download a Video", () => {
	test('status: {id, status, progress}; download: the video once completed, a clear error before', async () => {
		const submitted = await run(generate('openai', { waitForCompletion: false }), {
			knobs: { job_seconds: 2 },
		});
		const id = submitted.outputs[0][0].json.id as string;
		const asked = (operation: string) => ({
			resource: 'video',
			operation,
			jobId: id,
			options: { videoApi: 'openai' },
		});
		const early = await run(asked('download'));
		expect(errorOf(early.error)).toMatch(new RegExp(`${id} is not finished: its status is`));
		await new Promise((resolve) => setTimeout(resolve, 2500));
		const status = await run(asked('status'));
		expect(status.outputs[0][0].json).toMatchObject({ id, status: 'completed', progress: 100 });
		const download = await run(asked('download'));
		expect(download.outputs[0][0].binary?.data.mimeType).toBe('video/mp4');
		expect((await service().videoJobs()).submits).toBe(1);
	});
});
