/**
 * The test knobs of a video submit (its `x_local` object, the `x-local-knobs` header, or in a multipart submit a
 * text field `x_local`): they belong to the job and shape its whole life (how long it runs, how it ends, its polls,
 * its download). dev/service/README.md lists them.
 */
import { invalidRequest } from '../errors.mts';
import { isObject } from '../json-value.mts';
import { FieldReader, knobReader, readFailFirst, type FailFirst } from '../knobs.mts';

/** How a job ends once its time has run: `cancelled` and `expired` are OpenRouter's alone. */
export const JOB_ENDS = ['completed', 'failed', 'cancelled', 'expired'] as const;
export type JobEnd = (typeof JOB_ENDS)[number];

/** What a finished job's download is: the video, or a page or JSON where the video should be. */
const DOWNLOADS = ['video', 'html', 'json'] as const;
type Download = (typeof DOWNLOADS)[number];

/** The smallest and largest `content_bytes`: room for the MP4's boxes, and 1 GiB. */
export const MIN_CONTENT_BYTES = 4096;
const MAX_CONTENT_BYTES = 1024 ** 3;
const MAX_JOB_SECONDS = 600;
const DEFAULT_JOB_SECONDS = 2;

export interface VideoKnobs {
	/** The submit's `fail_first`, as for chat: the first N submits carrying its id fail. */
	failFirst?: FailFirst;
	/** `fail_first` on the job's own polls (the job is the id): the first N polls of it fail. */
	pollFail?: Omit<FailFirst, 'id'>;
	/** How long the job runs, from its submit to its end. */
	jobMs: number;
	end: JobEnd;
	/** A 200 to the submit that holds no id (no job is made). */
	noId: boolean;
	/** The job is made, then the submit's connection is closed unanswered (a job the client never heard of). */
	loseAnswer: boolean;
	/** The submit is refused by the content policy (`moderation_blocked`). */
	contentPolicy: boolean;
	download: Download;
	/** The video's size in bytes (default: a small file). */
	contentBytes?: number;
	/** OpenRouter's `polling_url` as a path (`/v1/videos/<id>`) instead of a whole URL. */
	relativePollingUrl: boolean;
}

/** `poll_fail`: `fail_first`'s fields but `id`, which is the job's. */
function readPollFail(raw: unknown): VideoKnobs['pollFail'] {
	if (!isObject(raw)) return undefined;
	if (raw.id !== undefined) {
		throw invalidRequest(
			"'x_local.poll_fail' takes no 'id': the job is its id",
			'x_local.poll_fail.id',
			'unknown_parameter',
		);
	}
	const read = readFailFirst(new FieldReader({ ...raw, id: 'poll' }, 'x_local.poll_fail'));
	if (read === undefined) return undefined;
	const { id: _id, ...pollFail } = read;
	return pollFail;
}

/** The knobs of an `x_local` value (undefined: none); a 400 names the knob at fault or unknown. */
export function parseVideoKnobs(value: unknown): VideoKnobs {
	const reader = knobReader(value);
	// Read through the reader (an object, or a 400 naming it), then as fail_first's fields.
	reader.object('poll_fail');
	const knobs: VideoKnobs = {
		failFirst: readFailFirst(reader.object('fail_first')),
		pollFail: readPollFail(isObject(value) ? value.poll_fail : undefined),
		jobMs: (reader.number('job_seconds', 0, MAX_JOB_SECONDS, false) ?? DEFAULT_JOB_SECONDS) * 1000,
		end: reader.oneOf('end', JOB_ENDS) ?? 'completed',
		noId: reader.boolean('no_id'),
		loseAnswer: reader.boolean('lose_answer'),
		contentPolicy: reader.boolean('content_policy'),
		download: reader.oneOf('download', DOWNLOADS) ?? 'video',
		contentBytes: reader.number('content_bytes', MIN_CONTENT_BYTES, MAX_CONTENT_BYTES),
		relativePollingUrl: reader.oneOf('polling_url', ['absolute', 'relative']) === 'relative',
	};
	reader.rejectUnread();
	return knobs;
}
