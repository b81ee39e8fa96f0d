import { sleep } from 'n8n-workflow';

import type { JobState, VideoApi, VideoAsk } from './shapes';
import { VIDEO_SHAPES } from './shapes';
import { formBody } from '../multipart';
import type { MediaType } from '../sniff';
import { sniffVideo } from '../sniff';
import type { Endpoint } from '../../failures/errors';
import { NetworkError, ServiceError, VideoJobError } from '../../failures/errors';
import type { EndpointRequest } from '../../request/endpoint';
import type { Requests } from '../../requests';
import { readBody } from '../../reply/body';
import { serviceErrorFrom } from '../../reply/error-body';
import { backoff } from '../../retry/policy';
import type { WholeReply } from '../../transport/outgoing';
import type { BinarySource } from '../../transport/read-stream';
import { peek } from '../../transport/read-stream';

/**
 * A video job, the one room beside the request path (`Requests`, so every request goes through the run: its
 * slots, the key's pauses and pacing, the failure table). Submitted once: never sent again after the service
 * may have accepted it (no answer: the error says a job may exist); a 429 is waited out and sent again (the
 * request's Max Wait on Rate Limit), an answered 5xx sent again at most twice. Polled from 1 s on, each interval
 * 1.5x the one before up to 30 s, a Retry-After honoured, a 429 or 5xx poll polled again later, until it ends
 * or Max Wait runs out (not an error: the state so far, `timedOut`). Its video downloaded as a stream (the key
 * only to the Base URL's origin), typed by its bytes.
 */

/** The model a video operation needs, for a model the gateway refuses (400 or 404). */
export const VIDEO_MODEL: NonNullable<Endpoint['model']> = {
	does: 'make videos',
	kind: 'a video model',
	fix: 'Choose a video model in the Model field (e.g. Veo, Kling, Seedance, Wan, Hailuo, Sora; on OpenRouter the list adds those of GET /videos/models), or set Options > Video API to the shape your gateway serves video in.',
};

const endpointAt = (path: string): Endpoint => ({
	operation: 'video',
	name: 'video generation',
	offers: 'video generation',
	model: VIDEO_MODEL,
	path,
});

/** The request a job's calls are sent with: the model, Timeout and the retries of Options. */
export type JobRequest = Pick<EndpointRequest, 'timeout' | 'retry' | 'model'>;

/** A finished or waited-for job: its last state; `timedOut` when Max Wait ran out first. */
export type WaitedJob = JobState & { timedOut?: true };

/** ` of the model "veo-3"`, when the job's model is known. */
const ofModel = (model: string) => (model === '' ? '' : ` of the model "${model}"`);

const FIRST_POLL_MS = 1_000;
const GROWTH = 1.5;
const LONGEST_POLL_MS = 30_000;
/** Retries of a submit answered 5xx: the service answered, so it accepted no job. */
const SUBMIT_5XX_RETRIES = 2;
/** The bytes read before a download is passed on: enough to tell MP4 and WebM. */
const VIDEO_HEAD_BYTES = 16;

const FIND_JOB =
	"Use Get a Video's Status or Download a Video with the job's id (or look in the service's dashboard) instead of running again: a job submitted again is paid again.";

/** Reads a submit's or poll's answer: the job's state, or the service's error naming the endpoint. */
function readState(reply: WholeReply, api: VideoApi, at: Endpoint, model: string): JobState {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body, at);
	const state = VIDEO_SHAPES[api].read(body.json);
	if (state === undefined) {
		throw new VideoJobError(
			`The service answered ${reply.status} to the video job${ofModel(model)} without a job id (${body.summary}): nothing can be polled`,
			'Check Options > Video API (the shape your gateway serves video in) and the Base URL; run again once it answers with an id.',
		);
	}
	return state;
}

/** The error of a job that ended without a video: failed (the service's message and code), cancelled or expired. */
function endedError(state: JobState, model: string): VideoJobError {
	if (state.end === 'failed') {
		const { message, code } = state.error ?? { message: 'no message' };
		return new VideoJobError(
			`The video job ${state.id}${ofModel(model)} failed: ${message}${code === undefined ? '' : ` (${code})`}`,
			'Change what the message points at (the prompt, Duration, Size) and run again; a failed job is usually not billed.',
			state.id,
		);
	}
	return new VideoJobError(
		`The video job ${state.id}${ofModel(model)} ended ${state.end ?? state.status} without a video`,
		state.end === 'expired'
			? 'Its video is no longer kept: run again to make it again.'
			: 'It was cancelled at the service: run again to make it again.',
		state.id,
	);
}

/** A submit that got no answer: the job may exist (and be billed); it is not sent again. */
const unanswered = (error: NetworkError, model: string) =>
	new VideoJobError(
		`The video job for the model "${model}" was sent, but no answer came back (network error ${error.code}): the service may have made the job, and billed it, anyway. It is not sent again`,
		FIND_JOB,
	);

export class VideoJobs {
	constructor(private readonly requests: Requests) {}

	/** Submits one job (see above for when it is sent again); its first state. */
	async submit(api: VideoApi, ask: VideoAsk, request: JobRequest): Promise<JobState> {
		const shape = VIDEO_SHAPES[api];
		const at = endpointAt(shape.submitPath);
		const submitted = shape.submit(ask);
		const body = 'json' in submitted ? { body: submitted.json } : formBody(submitted.parts);
		const once = { ...request, retry: { ...request.retry, maxRetries: 0 } };
		const signal = this.requests.run.signal();
		for (let failed = 0; ; failed++) {
			const sent = await this.requests
				.post({
					path: shape.submitPath,
					request: once,
					once: true,
					...body,
					read: (reply) => readState(reply, api, at, ask.model),
					tokensOf: () => undefined,
				})
				.then(
					(state) => ({ state }),
					(error: unknown) => ({ error }),
				);
			if ('state' in sent) {
				const { state } = sent;
				if (state.end !== undefined && state.end !== 'completed') {
					throw endedError(state, ask.model);
				}
				return state;
			}
			const { error } = sent;
			if (error instanceof NetworkError && !signal.aborted) throw unanswered(error, ask.model);
			const again =
				error instanceof ServiceError && error.status >= 500 && failed < SUBMIT_5XX_RETRIES;
			if (!again || signal.aborted) throw error;
			await sleep(error.retryAfterMs ?? backoff(failed + 1, Math.random), signal);
		}
	}

	/** The job's state now: one poll, through the run. */
	async status(
		api: VideoApi,
		id: string,
		request: JobRequest,
		signal?: AbortSignal,
	): Promise<JobState> {
		const path = VIDEO_SHAPES[api].pollPath(id);
		const at = endpointAt(path);
		return await this.requests.get(
			{
				path,
				request,
				read: (reply) => readState(reply, api, at, request.model),
				tokensOf: () => undefined,
			},
			signal,
		);
	}

	/**
	 * Polls the job until it ends (completed: its state; failed, cancelled, expired: their error) or `maxWaitMs`
	 * after `since` (the submit's answer) has gone: then the last state seen, `timedOut`. The execution's cancel
	 * ends it at once.
	 */
	async wait(
		api: VideoApi,
		first: JobState,
		request: JobRequest,
		maxWaitMs: number,
		since = Date.now(),
	): Promise<WaitedJob> {
		const deadline = since + maxWaitMs;
		const cancel = this.requests.run.signal();
		const polls = { ...request, retry: { ...request.retry, maxRetries: 0 } };
		let state = first;
		let interval = FIRST_POLL_MS;
		let asked = 0;
		while (state.end === undefined) {
			const left = deadline - Date.now();
			if (left <= 0) return { ...state, timedOut: true };
			await sleep(Math.min(Math.max(interval, asked), left), cancel);
			const ends = AbortSignal.any([
				cancel,
				AbortSignal.timeout(Math.max(deadline - Date.now(), 1)),
			]);
			const polled = await this.status(api, state.id, polls, ends).then(
				(now) => ({ now }),
				(error: unknown) => ({ error }),
			);
			asked = 0;
			if ('now' in polled) state = polled.now;
			else {
				const { error } = polled;
				if (!cancel.aborted && ends.aborted) return { ...state, timedOut: true };
				const again =
					error instanceof ServiceError && (error.status === 429 || error.status >= 500);
				if (!again || cancel.aborted) throw error;
				asked = error.retryAfterMs ?? 0;
			}
			interval = Math.min(interval * GROWTH, LONGEST_POLL_MS);
		}
		if (state.end !== 'completed') throw endedError(state, request.model);
		return state;
	}

	/**
	 * The finished job's video, through the run as a stream (the key only to the Base URL's origin: OpenRouter's
	 * `unsigned_urls` there, never new-api's CDN), typed by its bytes; a body that is no video fails.
	 */
	async download(
		api: VideoApi,
		state: JobState,
		request: JobRequest,
	): Promise<{ source: BinarySource; type: MediaType }> {
		if (state.end !== 'completed') {
			throw new VideoJobError(
				`The video job ${state.id} is not finished: its status is ${state.status}${state.progress === undefined ? '' : ` (${state.progress}%)`}`,
				"Download it once Get a Video's Status says completed (e.g. after a Wait node).",
				state.id,
			);
		}
		const url = VIDEO_SHAPES[api].download(state);
		if (url === undefined) {
			throw new VideoJobError(
				`The video job ${state.id} is completed but the service gave no URL of its video`,
				'Check Options > Video API: it must be the shape your gateway serves video in.',
				state.id,
			);
		}
		const { baseUrl } = this.requests.connection;
		const absolute = new URL(url, `${baseUrl}/`).href;
		const { head, source } = await peek(
			await this.requests.download(absolute, request),
			VIDEO_HEAD_BYTES,
		);
		const type = sniffVideo(head);
		if (type === undefined) {
			// The rest is not read; ending the body may be told as an error, which nothing else hears.
			if (!Buffer.isBuffer(source)) source.on('error', () => undefined).destroy();
			const text = head.toString('utf8').trimStart();
			const what = text.startsWith('<')
				? 'a web page'
				: text.startsWith('{')
					? 'JSON'
					: 'bytes of no video';
			throw new VideoJobError(
				`The download of the video job ${state.id} is ${what}, not an MP4 or WebM video`,
				'Check the Base URL and Options > Video API; if it keeps happening, download the video from the service with the job id.',
				state.id,
			);
		}
		return { source, type };
	}
}
