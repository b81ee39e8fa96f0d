/** The errors of the video routes: each shape's refusal of a model that makes no videos, the content policy's, a video not ready. */
import type { VideoApi } from '../config.mts';
import { ApiError, invalidRequest } from '../errors.mts';
import type { ModelDefinition } from '../models/model.mts';
import type { JobState, VideoJob } from './jobs.mts';

/** A model that makes no videos, as each gateway answers it: 400 (OpenAI, new-api) or 404 (OpenRouter), naming it. */
export const cannotMakeVideos =
	(api: VideoApi) =>
	(model: ModelDefinition): ApiError => {
		const words: Record<VideoApi, { status: number; message: string }> = {
			openai: {
				status: 400,
				message: `The model \`${model.id}\` does not support video generation`,
			},
			openrouter: {
				status: 404,
				message: `No endpoints found for ${model.id} that support video generation`,
			},
			'new-api': { status: 400, message: `model ${model.id} is not a video model` },
		};
		return new ApiError({
			...words[api],
			type: 'invalid_request_error',
			param: 'model',
			code: 'model_not_supported',
		});
	};

/** The provider's moderation refused the prompt (`content_policy` knob), in OpenAI's words. */
export const moderationBlocked = new ApiError({
	status: 400,
	message:
		'Your request was blocked by our moderation system: the prompt may describe content the usage policies do not allow.',
	type: 'invalid_request_error',
	param: 'prompt',
	code: 'moderation_blocked',
});

/** `end` `cancelled` or `expired` on a shape that has no such state. */
export const onlyOpenRouter = (end: string) =>
	invalidRequest(
		`'x_local.end' ${end} is OpenRouter's alone: the other shapes end 'completed' or 'failed'`,
		'x_local.end',
		'invalid_value',
	);

/** The content of a job that has none (yet). */
export function notReady(job: VideoJob, state: JobState): ApiError {
	const running = state.phase === 'queued' || state.phase === 'in_progress';
	return new ApiError({
		status: 400,
		message: running
			? `The video ${job.id} is not ready: its status is ${state.phase} (progress ${state.progress}%). Download it once its status is completed.`
			: `The video ${job.id} has no content: its status is ${state.phase}.`,
		type: 'invalid_request_error',
		param: 'id',
		code: 'video_not_ready',
	});
}

/** The failure of a job that ends `failed`. */
export const JOB_FAILURE = {
	code: 'video_generation_failed',
	message: 'The video could not be generated: the model stopped while rendering frame 48.',
};
