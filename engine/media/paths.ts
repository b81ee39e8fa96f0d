import type { MediaPath } from '../failures/errors';

/** What the media node does, and the endpoint each operation calls (a path under the Base URL). */
export const MEDIA_PATHS = {
	generate: 'images/generations',
	edit: 'images/edits',
	transcribe: 'audio/transcriptions',
	translate: 'audio/translations',
	speak: 'audio/speech',
} as const satisfies Record<string, MediaPath>;

export type MediaOperation = keyof typeof MEDIA_PATHS;
