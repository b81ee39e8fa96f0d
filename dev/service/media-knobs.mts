/**
 * The test knobs of the image and audio endpoints (their `x_local` object; in a multipart request a text field
 * holding it as JSON, form-fields.mts). Both: `fail_first` (as for chat completions) and `slow_ms` (a wait before
 * anything). Images: `content_policy` (the provider's safety system refuses the prompt), `no_images` (200 with an
 * empty `data`), `other_origin` (`url` answers on the other name of the loopback address, another origin), `url_path`
 * (`url` answers point at this path and query of the service instead of the image: a file gone, a large file),
 * `images` N (N images whatever `n` asked, as a model that makes one image a request).
 * Speech: `content_type` (the answer's Content-Type instead of the format's own). Transcriptions and translations:
 * `cut_at` (the answer's body ends after its first N characters, as a reply a proxy cut off).
 */
import type { FailFirst } from './knobs.mts';
import { invalidRequest } from './errors.mts';
import { knobReader, readFailFirst } from './knobs.mts';

const maxMs = 600_000;
const maxChars = 1_000_000;
const maxImages = 16;

export interface MediaKnobs {
	failFirst?: FailFirst;
	slowMs: number;
}

export interface ImageKnobs extends MediaKnobs {
	contentPolicy: boolean;
	noImages: boolean;
	otherOrigin: boolean;
	urlPath?: string;
	images?: number;
}

export interface AudioKnobs extends MediaKnobs {
	cutAt?: number;
}

export interface SpeechKnobs extends MediaKnobs {
	contentType?: string;
}

/** Reads the knobs both kinds share, and those `more` reads; a 400 names a knob at fault or unknown. */
function parseWith<K>(
	value: unknown,
	more: (reader: ReturnType<typeof knobReader>) => K,
): MediaKnobs & K {
	const reader = knobReader(value);
	const knobs = {
		failFirst: readFailFirst(reader.object('fail_first')),
		slowMs: reader.number('slow_ms', 0, maxMs) ?? 0,
		...more(reader),
	};
	reader.rejectUnread();
	return knobs;
}

export function parseImageKnobs(value: unknown): ImageKnobs {
	return parseWith(value, (reader) => {
		const urlPath = reader.string('url_path');
		if (urlPath !== undefined && !urlPath.startsWith('/')) {
			throw invalidRequest(
				"'x_local.url_path' must be a path that starts with /",
				'x_local.url_path',
				'invalid_value',
			);
		}
		return {
			contentPolicy: reader.boolean('content_policy'),
			noImages: reader.boolean('no_images'),
			otherOrigin: reader.boolean('other_origin'),
			urlPath,
			images: reader.number('images', 1, maxImages),
		};
	});
}

export function parseAudioKnobs(value: unknown): AudioKnobs {
	return parseWith(value, (reader) => ({ cutAt: reader.number('cut_at', 0, maxChars) }));
}

export function parseSpeechKnobs(value: unknown): SpeechKnobs {
	return parseWith(value, (reader) => ({ contentType: reader.string('content_type') }));
}
