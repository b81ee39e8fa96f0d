/**
 * The video jobs the service runs, per key, since start or the last DELETE /__control/requests: each is queued
 * for its first quarter, then in progress (its progress the share of its time gone), then ended the way its
 * knobs say. Every submit is counted (refused ones too) and every poll's time kept, so that a test sees a job
 * not submitted twice and how often it was polled (GET /__control/videos).
 */
import { randomBytes } from 'node:crypto';
import type { KeyRecord, VideoApi } from '../config.mts';
import { ApiError } from '../errors.mts';
import type { JobEnd, VideoKnobs } from './knobs.mts';

const KEPT = 10_000;

export type Phase = 'queued' | 'in_progress' | JobEnd;

export interface JobState {
	phase: Phase;
	/** 0 to 100. */
	progress: number;
}

export interface VideoJob {
	id: string;
	/** The shape of the route that made it. */
	api: VideoApi;
	key: KeyRecord;
	model: string;
	prompt: string;
	seconds: number;
	size?: string;
	/** What the job was made from, as its video's `free` box tells it. */
	facts: Record<string, string>;
	knobs: VideoKnobs;
	/** Unix milliseconds. */
	submittedAt: number;
	polls: number[];
	downloads: number;
}

/** The prefix of a job's id in each shape, as the gateways name them. */
const ID_PREFIX: Record<VideoApi, string> = {
	openai: 'video_',
	openrouter: 'vgen-',
	'new-api': 'task_',
};

/** GET /__control/videos: `status` in the service's own words (queued, in_progress, or how the job ended). */
export interface VideoReport {
	submits: number;
	jobs: Array<{
		id: string;
		/** The key's name. */
		key: string;
		api: VideoApi;
		model: string;
		prompt: string;
		status: Phase;
		/** Unix milliseconds, fractional. */
		submittedAt: number;
		polls: number[];
		downloads: number;
	}>;
}

const now = () => performance.timeOrigin + performance.now();

const notFound = (id: string) =>
	new ApiError({
		status: 404,
		message: `No video job '${id}' for this key`,
		type: 'invalid_request_error',
		param: 'id',
		code: 'video_not_found',
	});

export class VideoJobs {
	readonly #jobs = new Map<string, VideoJob>();
	#submits = 0;

	countSubmit(): void {
		this.#submits += 1;
	}

	add(job: Omit<VideoJob, 'id' | 'submittedAt' | 'polls' | 'downloads'>): VideoJob {
		const id = `${ID_PREFIX[job.api]}${randomBytes(12).toString('hex')}`;
		const made: VideoJob = { ...job, id, submittedAt: now(), polls: [], downloads: 0 };
		this.#jobs.set(id, made);
		if (this.#jobs.size > KEPT) this.#jobs.delete(this.#jobs.keys().next().value as string);
		return made;
	}

	/** The job `id` of `key`; 404 for another key's job as for none. */
	find(id: string, key: KeyRecord): VideoJob {
		const job = this.#jobs.get(id);
		if (job === undefined || job.key.key !== key.key) throw notFound(id);
		return job;
	}

	/** The job `id` whoever made it (the storage of video/cdn.mts has no key). */
	byId(id: string): VideoJob | undefined {
		return this.#jobs.get(id);
	}

	clear(): void {
		this.#jobs.clear();
		this.#submits = 0;
	}

	report(): VideoReport {
		return {
			submits: this.#submits,
			jobs: [...this.#jobs.values()].map((job) => ({
				id: job.id,
				key: job.key.name,
				api: job.api,
				model: job.model,
				prompt: job.prompt,
				status: stateOf(job).phase,
				submittedAt: job.submittedAt,
				polls: job.polls,
				downloads: job.downloads,
			})),
		};
	}
}

/** Where `job` is now. */
export function stateOf(job: VideoJob): JobState {
	const { jobMs, end } = job.knobs;
	const gone = now() - job.submittedAt;
	if (gone >= jobMs) return { phase: end, progress: end === 'completed' ? 100 : 0 };
	if (gone < jobMs / 4) return { phase: 'queued', progress: 0 };
	return {
		phase: 'in_progress',
		progress: Math.min(99, Math.max(1, Math.floor((gone / jobMs) * 100))),
	};
}
