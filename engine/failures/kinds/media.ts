import { MediaReplyError, VideoJobError } from '../errors';
import type { FailureKind } from '../kind';
import { kind } from '../kind';
import {
	cannotServeMedia,
	refusedByPolicy,
	refusesRecording,
	refusesTextLength,
	refusesUploadSize,
} from '../service-signs';
import { mismatchedReply } from './reply';
import { modelCannot, service } from './service';

/**
 * What goes wrong only with images and audio: the provider's content policy refuses the prompt (at any
 * endpoint), a recording the service cannot read, a model the endpoint refuses, an upload the service finds too large, a text it finds too long
 * (speech), a reply without what was
 * asked for. None is retried and none falls back: another attempt gets the same answer. A recording over the
 * limit is refused before anything is sent (an InputError); the rest (the key, rate limits, 5xx, a service
 * without the endpoint) reads as for every request.
 */
export const MEDIA_KINDS: FailureKind[] = [
	service({
		name: 'content policy',
		anotherModel: false,
		test: refusedByPolicy,
		words: () => ({
			message: "The provider's content policy refused the prompt",
			fix: 'Reword the prompt: leave out what a safety filter may object to (real people by name, violence, brands, explicit content). The same prompt gets the same answer.',
		}),
	}),
	service({
		name: 'recording not read',
		anotherModel: false,
		test: refusesRecording,
		words: () => ({
			message: 'The service could not read the recording as audio',
			fix: 'The file starts as a recording but is not one the service reads (damaged, cut off, or in a format it does not take): pass the whole recording, or convert it to MP3 first (e.g. ffmpeg -i in.wav out.mp3).',
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	modelCannot(
		'model cannot serve the operation',
		cannotServeMedia,
		({ endpoint }) => endpoint!.model!,
	),
	service({
		name: 'upload too large',
		anotherModel: false,
		test: refusesUploadSize,
		words: (error) => ({
			message: `The service refused the ${error.endpoint!.uploads!} as too large`,
			fix: 'Send less: a recording of at most 25 MB (shorter, or compressed, e.g. as MP3 at 64 kbit/s: about 50 minutes), or smaller images.',
		}),
	}),
	service({
		name: 'text too long',
		anotherModel: false,
		test: refusesTextLength,
		words: ({ endpoint }) => ({
			message: `The service refused ${endpoint!.text!.what} as too long`,
			fix: endpoint!.text!.fix,
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	mismatchedReply('image or audio reply unusable', MediaReplyError, (error) => error.fix),
	kind<VideoJobError>({
		name: 'video job without a video',
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel: false,
		matches: (error): error is VideoJobError => error instanceof VideoJobError,
		words: (error) => ({ message: error.problem, fix: error.fix }),
	}),
];
