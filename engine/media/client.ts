import type { ReplyImage } from './read-images';
import { readImages } from './read-images';
import type { Speech, Transcription } from './read-audio';
import { readSpeech, readTranscription } from './read-audio';
import type { MediaRequest } from './request';
import type { Connection } from '../connection';
import type { Post } from '../post';
import { Poster } from '../post';
import type { Run } from '../run/run';
import type { RawBody, Sender } from '../transport/outgoing';

/** A request's body: JSON, or a multipart form made whole. */
export type MediaBody = { body: object } | { raw: RawBody };

/**
 * The image and audio endpoints for the media node: one request per item, through the run like every request
 * (its slots, the key's pauses and pacing, the request's retries), on the route chosen at the first. Each
 * call's body is made by `make` once the run admits it, so an upload's bytes are held only while in flight.
 */
export class MediaClient {
	readonly #poster: Poster;

	constructor(context: Sender, connection: Connection, run: Run) {
		this.#poster = new Poster(context, connection, run);
	}

	/** The images of POST /images/generations or /images/edits, in order (a URL left to download). */
	async images(
		path: 'images/generations' | 'images/edits',
		request: MediaRequest,
		make: () => Promise<MediaBody>,
	): Promise<ReplyImage[]> {
		return await this.#post(path, request, make, (reply) => readImages(reply, path));
	}

	/** The text of POST /audio/transcriptions or /audio/translations, and what else the service sent. */
	async transcript(
		path: 'audio/transcriptions' | 'audio/translations',
		request: MediaRequest,
		make: () => Promise<MediaBody>,
	): Promise<Transcription> {
		return await this.#post(path, request, make, (reply) => readTranscription(reply, path));
	}

	/** The audio of POST /audio/speech, typed by its bytes (else as the service or the format asked says). */
	async speech(request: MediaRequest, make: () => Promise<MediaBody>): Promise<Speech> {
		const format = request.fields.response_format;
		return await this.#post('audio/speech', request, make, (reply) =>
			readSpeech(reply, typeof format === 'string' ? format : undefined),
		);
	}

	async #post<T>(
		path: string,
		request: MediaRequest,
		make: () => Promise<MediaBody>,
		read: Post<T>['read'],
	): Promise<T> {
		return await this.#poster.post(async () => ({
			path,
			request,
			...(await make()),
			read,
			tokensOf: () => undefined,
		}));
	}
}
