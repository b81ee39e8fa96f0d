import { dataUriType } from './data-uri';
import { InputError } from '../../../engine';

/**
 * The content of the messages an AI node or LangChain code hands n8n's adapter, in the forms its message
 * conversion reads. Images come in every LangChain form: `image_url` parts (what n8n's AI nodes send),
 * v0 standard blocks (`source_type` url or base64 with `mime_type`) and v1 blocks (`url`, or `data` with
 * `mimeType`); the adapter reads only v1 and drops `image_url`. Anything else in a user message (a file,
 * audio, a text file, a provider's own block) is refused before anything is sent: chat completions take
 * text and images only.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;

const FIX =
	'Pass images (image/*) to the model, or turn other files into text first, e.g. with an Extract from File node.';

/** A part's URL (v0, v1 and `image_url` spell it differently). */
function partUrl(part: Json): string | undefined {
	const image = part.image_url;
	return text(part.url) ?? text(image) ?? (isObject(image) ? text(image.url) : undefined);
}

/** The part's media type, as it says or as its data URI says. */
function mediaType(part: Json): string | undefined {
	return (
		text(part.mimeType) ?? text(part.mime_type) ?? dataUriType(partUrl(part) ?? text(part.data))
	);
}

/** An image part as LangChain's v1 image block (URL, or base64 data with its type), its detail kept. */
function standardImage(part: Json): Json {
	const image = part.image_url;
	const detail = isObject(image)
		? image.detail
		: isObject(part.metadata)
			? part.metadata.detail
			: undefined;
	const metadata = {
		...(isObject(part.metadata) ? part.metadata : {}),
		...(typeof detail === 'string' ? { detail } : {}),
	};
	const url = partUrl(part);
	const source = url === undefined ? { data: part.data, mimeType: mediaType(part) } : { url };
	return { type: 'image', ...source, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

/** What a refused part is, in words: `a file block of type text/plain`. */
function described(part: Json): string {
	const type = typeof part.type === 'string' ? part.type : 'untyped';
	const media = mediaType(part);
	const article = /^[aeiou]/i.test(type) ? 'an' : 'a';
	return `${article} ${type} block${media === undefined ? '' : ` of type ${media}`}`;
}

/** A user message's part ready for the adapter, or what it is when it cannot be sent. */
function userPart(part: unknown): Json | string {
	if (typeof part === 'string') return { type: 'text', text: part };
	if (!isObject(part)) return `not a content block (${JSON.stringify(part)})`;
	if (part.type === 'text') return part;
	const media = mediaType(part);
	const image =
		media === undefined
			? part.type === 'image' || part.type === 'image_url'
			: media.startsWith('image/');
	if (!image) return `${described(part)}, and chat completions take images only`;
	if (partUrl(part) === undefined && (part.data === undefined || part.data === '')) {
		return `${described(part)} without url or data (images are sent by URL, data URI or base64 data)`;
	}
	return standardImage(part);
}

/** LangChain's message type: human, ai, system, tool, generic. */
function messageType(message: Json): unknown {
	return typeof message.getType === 'function'
		? (message.getType as () => unknown)()
		: message.type;
}

/**
 * The messages with every user message's content in the adapter's forms (a copy of the same class where
 * something changes). Throws an InputError naming the message and the part that cannot be sent.
 */
export function adapterMessages(messages: unknown): unknown {
	if (!Array.isArray(messages)) return messages;
	return messages.map((message: unknown, index) => {
		if (!isObject(message) || !Array.isArray(message.content)) return message;
		if (messageType(message) !== 'human') return message;
		const parts = (message.content as unknown[]).map((part, partIndex) => {
			const ready = userPart(part);
			if (typeof ready === 'string') {
				throw new InputError(
					`Message ${index + 1} (user)`,
					`part ${partIndex + 1} is ${ready}`,
					FIX,
				);
			}
			return ready;
		});
		if (parts.every((part, partIndex) => part === (message.content as unknown[])[partIndex])) {
			return message;
		}
		const copy = Object.assign(
			Object.create(Object.getPrototypeOf(message) as object) as Json,
			message,
		);
		copy.content = parts;
		return copy;
	});
}
