/**
 * The video routes, in the shape the request's key or `x-local-video` header names (video/shape.mts):
 * - `openai` (and `new-api`, which serves it too): `POST /v1/videos`, `GET /v1/videos/{id}`, `GET
 *   /v1/videos/{id}/content` (application/octet-stream);
 * - `openrouter`: `POST /v1/videos`, `GET /v1/videos/models`, `GET /v1/videos/{id}` (its `polling_url`), `GET
 *   /v1/videos/{id}/content?index=0` (its `unsigned_urls`, which need the key);
 * - `new-api`: `POST /v1/video/generations`, `GET /v1/video/generations/{task_id}` (its `url` on video/cdn.mts).
 * A submit is checked, its model resolved as at every endpoint, then its knobs apply (video/knobs.mts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatContext } from './chat.mts';
import type { VideoApi } from './config.mts';
import { endpointModel } from './endpoint-model.mts';
import { invalidRequest, notFound } from './errors.mts';
import { sendJson } from './http-io.mts';
import { KNOB_HEADER } from './knob-header.mts';
import { checkFailFirst } from './knob-faults.mts';
import { factsOf } from './model-facts.mts';
import { isVideoModel } from './models/video.mts';
import { cutOff } from './request-log.mts';
import { newApiTask, openAiVideo, openRouterVideo, pollingUrl } from './video/answers.mts';
import { sendVideo } from './video/content.mts';
import { stateOf, type VideoJob, type VideoJobs } from './video/jobs.mts';
import {
	parseNewApiSubmit,
	parseOpenAiSubmit,
	parseOpenRouterSubmit,
	type VideoSubmit,
} from './video/requests.mts';
import {
	cannotMakeVideos,
	moderationBlocked,
	notReady,
	onlyOpenRouter,
} from './video/refusals.mts';
import { videoApiOf } from './video/shape.mts';
import { models } from './models/registry.mts';

export interface VideoContext extends ChatContext {
	jobs: VideoJobs;
	/** The Host header of the request: the URLs the answers give are under it. */
	host: string | undefined;
}

/** Whether `path` is a video route's (of any shape). */
export const isVideoPath = (path: string) =>
	/^\/v1\/videos(\/|$)/.test(path) || /^\/v1\/video\/generations(\/|$)/.test(path);

/** The answer to a submit that was accepted, in the submit route's shape. */
function submitted(api: VideoApi, job: VideoJob, host: string | undefined): object {
	if (api === 'openrouter')
		return { id: job.id, polling_url: pollingUrl(job, host), status: 'pending' };
	if (api === 'new-api') return { task_id: job.id, status: 'queued' };
	return openAiVideo(job, { phase: 'queued', progress: 0 });
}

/** A 200 that names no job (`no_id`), in the submit route's shape. */
function withoutId(api: VideoApi, submit: VideoSubmit): object {
	if (api === 'openrouter') return { status: 'pending' };
	if (api === 'new-api') return { status: 'queued' };
	return {
		object: 'video',
		status: 'queued',
		model: submit.model,
		progress: 0,
		seconds: submit.secondsText,
		size: submit.size,
	};
}

async function submit(
	res: ServerResponse,
	api: VideoApi,
	request: () => VideoSubmit,
	context: VideoContext,
): Promise<void> {
	context.jobs.countSubmit();
	const asked = request();
	const { knobs } = asked;
	if (api !== 'openrouter' && (knobs.end === 'cancelled' || knobs.end === 'expired')) {
		throw onlyOpenRouter(knobs.end);
	}
	const refusal = cannotMakeVideos(api);
	const model = await endpointModel(res, asked.model, context, isVideoModel, refusal);
	if (model === undefined) return;
	checkFailFirst(knobs.failFirst, context.counts);
	if (knobs.contentPolicy) throw moderationBlocked;
	if (knobs.noId) {
		sendJson(res, 200, withoutId(api, asked));
		return;
	}
	const { prompt, seconds, size, facts } = asked;
	const job = context.jobs.add({
		api,
		key: context.key,
		model: model.id,
		prompt,
		seconds,
		...(size === undefined ? {} : { size }),
		facts,
		knobs,
	});
	if (knobs.loseAnswer) {
		cutOff(res);
		return;
	}
	sendJson(res, 200, submitted(api, job, context.host));
}

/** A poll of `job`: counted, failed while `poll_fail` says so, then answered by `answer`. */
function poll(
	res: ServerResponse,
	job: VideoJob,
	answer: () => object,
	context: VideoContext,
): void {
	job.polls.push(performance.timeOrigin + performance.now());
	const { pollFail } = job.knobs;
	if (pollFail !== undefined) checkFailFirst({ ...pollFail, id: `poll:${job.id}` }, context.counts);
	sendJson(res, 200, answer());
}

/** OpenRouter's `GET /v1/videos/models`: the key's video models with what each takes. */
function videoModels(context: VideoContext): object {
	const ids = context.config.groups.get(context.key.group) ?? [];
	return {
		data: ids.flatMap((id) => {
			const model = models.get(id);
			if (model === undefined || !isVideoModel(model)) return [];
			return [
				{
					id: model.id,
					canonical_slug: model.id,
					name: `Local ${model.id}`,
					created: model.created,
					description: 'A local video model: MP4 files of well-formed boxes, made in seconds.',
					supported_durations: [4, 5, 8],
					supported_resolutions: ['480p', '720p', '1080p'],
					supported_aspect_ratios: ['16:9', '9:16', '1:1'],
					supported_frame_images: ['first_frame', 'last_frame'],
					generate_audio: true,
					pricing: { per_second: String(factsOf(model).perSecond) },
				},
			];
		}),
	};
}

/** `?index=0` (OpenRouter) or `?variant=video` (OpenAI), the one content a job has; else a 400 naming it. */
function checkVariant(req: IncomingMessage, shape: VideoApi): void {
	const query = new URL(req.url ?? '/', 'http://local').searchParams;
	const [param, only] = shape === 'openrouter' ? ['index', '0'] : ['variant', 'video'];
	const asked = query.get(param) ?? only;
	if (asked !== only) {
		throw invalidRequest(
			`'${param}' ${JSON.stringify(asked)}: a job has only the ${param} ${JSON.stringify(only)}`,
			param,
			'invalid_value',
		);
	}
}

/** new-api's `/v1/video/generations[/<task_id>]`. */
async function generations(
	req: IncomingMessage,
	res: ServerResponse,
	task: string[],
	text: string,
	context: VideoContext,
): Promise<boolean> {
	if (req.method === 'POST' && task.length === 0) {
		await submit(res, 'new-api', () => parseNewApiSubmit(text), context);
	} else if (req.method === 'GET' && task.length === 1) {
		const job = context.jobs.find(task[0], context.key);
		poll(res, job, () => newApiTask(job, context.host), context);
	} else return false;
	return true;
}

/** `/v1/videos[/<id>[/content]]` and OpenRouter's `/v1/videos/models`, in OpenAI's or OpenRouter's shape. */
async function videoJobs(
	req: IncomingMessage,
	res: ServerResponse,
	shape: VideoApi,
	rest: string[],
	body: { raw: Buffer; text: string },
	context: VideoContext,
): Promise<boolean> {
	const [id, content] = rest;
	if (req.method === 'POST' && rest.length === 0) {
		const request =
			shape === 'openrouter'
				? () => parseOpenRouterSubmit(body.text)
				: () =>
						parseOpenAiSubmit(
							req.headers['content-type'],
							body.raw,
							body.text,
							req.headers[KNOB_HEADER],
						);
		await submit(res, shape, request, context);
	} else if (req.method !== 'GET' || rest.length === 0 || rest.length > 2) {
		return false;
	} else if (shape === 'openrouter' && id === 'models' && rest.length === 1) {
		sendJson(res, 200, videoModels(context));
	} else if (rest.length === 1) {
		const job = context.jobs.find(id, context.key);
		const answer = () =>
			shape === 'openrouter' ? openRouterVideo(job, context.host) : openAiVideo(job);
		poll(res, job, answer, context);
	} else if (content === 'content') {
		const job = context.jobs.find(id, context.key);
		checkVariant(req, shape);
		const state = stateOf(job);
		if (state.phase !== 'completed') throw notReady(job, state);
		sendVideo(res, job, 'application/octet-stream');
	} else return false;
	return true;
}

export async function videos(
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	body: { raw: Buffer; text: string },
	context: VideoContext,
): Promise<void> {
	const api = videoApiOf(req, context.key);
	// /v1/videos/... or /v1/video/generations/...
	const [, , first, second, ...more] = path.split('/');
	let answered = false;
	if (api === 'new-api' && first === 'video' && second === 'generations') {
		answered = await generations(req, res, more, body.text, context);
	} else if (api !== undefined && first === 'videos') {
		const shape = api === 'openrouter' ? 'openrouter' : 'openai';
		const rest = [second, ...more].filter((part) => part !== undefined);
		answered = await videoJobs(req, res, shape, rest, body, context);
	}
	if (!answered) throw notFound(req.method ?? '', path);
}
