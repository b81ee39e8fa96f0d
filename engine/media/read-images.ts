import type { MediaType } from './sniff';
import { sniffImage } from './sniff';
import type { Endpoint } from '../failures/errors';
import { MediaReplyError } from '../failures/errors';
import { listInReply, withoutList } from '../reply/list-reply';
import { shownUrl } from '../requests';
import type { HttpReply } from '../transport/outgoing';
import { describe, isPlainObject } from '../values';

/**
 * The images of a reply: `data[]` of the image endpoints (`b64_json`, or a `url` to download, with
 * `revised_prompt`), and `message.images[]` of a chat reply (OpenRouter's and Vercel AI Gateway's image models:
 * `image_url.url`, a data URL). Image data is typed by its bytes; a URL is reported, never fetched here.
 */

/** An image of a reply: its bytes and their type, or the URL to download it from; the prompt the model used, when sent. */
export type ReplyImage =
	| { bytes: Buffer; type: MediaType; revisedPrompt?: string }
	| { url: string; revisedPrompt?: string };

const RETRY_FIX =
	'Nothing of this reply is used. Run again; if it keeps happening, report it to the service with this message, or choose another image model.';

const NO_IMAGES_FIX =
	'Providers answer this way when their filter removed the images: reword the prompt, or choose another image model. Where a gateway gives images only in chat (OpenRouter, Vercel AI Gateway), use the Chat Completion node with Output Modalities.';

/** Image bytes with their type; `which` names the image in the error for bytes that are no image. */
function typed(bytes: Buffer, which: string): { bytes: Buffer; type: MediaType } {
	const type = sniffImage(bytes);
	if (type === undefined) {
		throw new MediaReplyError(
			'image',
			`sent ${which} whose data is not a PNG, JPEG, GIF or WebP image`,
			RETRY_FIX,
		);
	}
	return { bytes, type };
}

const decoded = (base64: string, which: string) => typed(Buffer.from(base64, 'base64'), which);

/** An image given by URL: a data URL is decoded here, an http(s) URL is left to download. */
function fromUrl(url: string, which: string): ReplyImage {
	const data = /^data:[^,]*;base64,(.*)$/s.exec(url);
	if (data !== null) return decoded(data[1], which);
	if (/^https?:\/\//i.test(url)) return { url };
	const shown = url.length > 60 ? `${url.slice(0, 60)}…` : url;
	throw new MediaReplyError(
		'image',
		`sent ${which} whose URL "${shown}" is neither an http(s) nor a data URL`,
		RETRY_FIX,
	);
}

/** One entry of `data[]`: `b64_json` or `url`, and `revised_prompt` when it is text. */
function dataEntry(entry: unknown, at: number): ReplyImage {
	const which = `image ${at + 1}`;
	const fields = isPlainObject(entry) ? entry : {};
	const revised =
		typeof fields.revised_prompt === 'string' ? { revisedPrompt: fields.revised_prompt } : {};
	if (typeof fields.b64_json === 'string')
		return { ...decoded(fields.b64_json, which), ...revised };
	if (typeof fields.url === 'string') return { ...fromUrl(fields.url, which), ...revised };
	throw new MediaReplyError('image', `sent ${which} without b64_json or url`, RETRY_FIX);
}

/**
 * Reads the reply of POST /images/generations or /images/edits (`{data: [{b64_json | url, revised_prompt?}]}`):
 * every image, in order. A 200 without any image is an error, never an empty success; so is a body without
 * `data`, image data that is no image, an entry without either field. An error status, or an error object
 * inside a 2xx, is the ServiceError it says, naming the operation `at`.
 */
export function readImages(reply: HttpReply, at: Endpoint): ReplyImage[] {
	const { list, body } = listInReply(reply, 'data', at);
	if (list === undefined) {
		throw new MediaReplyError(
			'image',
			withoutList(reply.status, body, 'a list of images'),
			RETRY_FIX,
		);
	}
	if (list.length === 0) {
		throw new MediaReplyError('image', `answered ${reply.status} without any image`, NO_IMAGES_FIX);
	}
	return list.map(dataEntry);
}

/**
 * The images of a chat reply's message (`images: [{type: "image_url", image_url: {url}}]`), in order; none when
 * it has none. Data URLs are decoded and typed by their bytes; http(s) URLs are reported to download.
 */
export function messageImages(message: unknown): ReplyImage[] {
	const images = isPlainObject(message) ? message.images : undefined;
	if (images === undefined || images === null) return [];
	if (!Array.isArray(images)) {
		throw new MediaReplyError(
			'image',
			`sent message.images that is ${describe(images)}, not a list`,
			RETRY_FIX,
		);
	}
	return images.map((entry: unknown, at) => {
		const which = `image ${at + 1} of message.images`;
		const image = isPlainObject(entry) ? entry.image_url : undefined;
		const url = isPlainObject(image) ? image.url : image;
		if (typeof url !== 'string') {
			throw new MediaReplyError('image', `sent ${which} without image_url.url`, RETRY_FIX);
		}
		return fromUrl(url, which);
	});
}

/** How many first bytes of a file tell its image type (`sniffImage`). */
export const IMAGE_HEAD_BYTES = 16;

/**
 * The type of a downloaded image (the `url` of a reply) told by its first bytes (`IMAGE_HEAD_BYTES`); bytes of
 * anything else name the URL, shown without its query.
 */
export function downloadedType(head: Buffer, url: string): MediaType {
	return typed(head, `an image URL (${shownUrl(url)})`).type;
}
