/**
 * A video job in each shape's words: OpenAI's video object, OpenRouter's job (`polling_url`; once completed
 * `unsigned_urls` on this service, which need the key, and `usage`), new-api's task (once succeeded a `url` on
 * the storage of cdn.mts, another origin, which refuses the key).
 */
import { otherHost } from '../redirect.mts';
import { stateOf, type JobState, type VideoJob } from './jobs.mts';
import { JOB_FAILURE } from './refusals.mts';
import { factsOf } from '../model-facts.mts';
import { models } from '../models/registry.mts';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** OpenAI's video object (also new-api's and LiteLLM's `/v1/videos`). */
export function openAiVideo(job: VideoJob, state: JobState = stateOf(job)): object {
	const done = state.phase === 'completed';
	const endedAt = job.submittedAt + job.knobs.jobMs;
	return {
		id: job.id,
		object: 'video',
		created_at: seconds(job.submittedAt),
		status: state.phase,
		model: job.model,
		progress: state.progress,
		seconds: job.facts.seconds,
		size: job.size ?? null,
		quality: 'standard',
		remixed_from_video_id: null,
		completed_at: done ? seconds(endedAt) : null,
		expires_at: done ? seconds(endedAt) + 24 * 3600 : null,
		error: state.phase === 'failed' ? JOB_FAILURE : null,
	};
}

const OPENROUTER_STATUS: Record<string, string> = { queued: 'pending' };

/** Where OpenRouter's job is polled: on `host` (the request's), or the path alone (`polling_url` knob). */
export function pollingUrl(job: VideoJob, host: string | undefined): string {
	const path = `/v1/videos/${job.id}`;
	return job.knobs.relativePollingUrl ? path : `http://${host}${path}`;
}

/** OpenRouter's job; `host` the request's Host, which its URLs are on. */
export function openRouterVideo(
	job: VideoJob,
	host: string | undefined,
	state: JobState = stateOf(job),
): object {
	const path = `/v1/videos/${job.id}`;
	const status = OPENROUTER_STATUS[state.phase] ?? state.phase;
	const perSecond = factsOf(models.get(job.model)!).perSecond ?? 0;
	const finished =
		state.phase === 'completed'
			? {
					generation_id: `gen-${job.id.slice('vgen-'.length)}`,
					unsigned_urls: [`http://${host}${path}/content?index=0`],
					usage: { cost: Math.round(job.seconds * perSecond * 1000) / 1000, is_byok: false },
				}
			: {};
	const failed = state.phase === 'failed' ? { error: JOB_FAILURE.message } : {};
	return { id: job.id, polling_url: pollingUrl(job, host), status, ...finished, ...failed };
}

const NEW_API_STATUS: Record<string, string> = { completed: 'succeeded' };

/** new-api's task; its `url` on the other name of the loopback address (`host`'s own when it has none). */
export function newApiTask(
	job: VideoJob,
	host: string | undefined,
	state: JobState = stateOf(job),
): object {
	const status = NEW_API_STATUS[state.phase] ?? state.phase;
	const storage = otherHost(host) ?? host;
	const expires = seconds(job.submittedAt) + 3600;
	const url =
		state.phase === 'completed'
			? { url: `http://${storage}/__cdn/videos/${job.id}.mp4?expires=${expires}&signature=local` }
			: {};
	const failed = state.phase === 'failed' ? { error: JOB_FAILURE } : {};
	return { task_id: job.id, status, ...url, ...failed };
}
