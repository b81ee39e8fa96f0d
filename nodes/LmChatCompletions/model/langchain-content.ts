import { dataUriType } from './data-uri';
import { cannotCarry, fileRefusal } from './file-parts';
import type { Refusal } from './file-parts';
import { errors } from '../../../engine';

/**
 * The content of the messages an AI node or LangChain code hands n8n's adapter, in the forms its message
 * conversion reads. Images come in every LangChain form: `image_url` parts (what n8n's AI nodes send),
 * v0 standard blocks (`source_type` url or base64 with `mime_type`) and v1 blocks (`url`, or `data` with
 * `mimeType`); the adapter reads only v1 and drops `image_url`. Files too: v0 blocks (`source_type` base64,
 * url with a data URL, or text), v1 blocks (`file` with `data` or a data `url`, `text-plain`) and OpenAI's own
 * `file` part (`file.file_data`) become v1 `file` blocks with their data, media type and file name (a plain
 * text as base64 text/plain), for `messages.ts` to send. Anything the protocol cannot carry (audio, video, a
 * file given by link or id, a provider's own block) is refused before anything is sent, naming the block.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;

/** OpenAI's own file part keeps the file in `file`: `{ filename, file_data, file_id }`. */
const openAiFile = (part: Json): Json => (isObject(part.file) ? part.file : {});

/** A part's URL (v0, v1, `image_url` and OpenAI's file part spell it differently). */
function partUrl(part: Json): string | undefined {
	const image = part.image_url;
	return (
		text(part.url) ??
		text(image) ??
		(isObject(image) ? text(image.url) : undefined) ??
		text(openAiFile(part).file_data)
	);
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

/**
 * A file block as the v1 `file` block the adapter reads: its data (a plain text as base64), or its data URL,
 * with its media type and file name; or why it cannot go.
 */
function fileBlock(part: Json, media: string | undefined): Json | Refusal {
	const metadata = isObject(part.metadata) ? part.metadata : {};
	const filename = text(metadata.filename) ?? text(openAiFile(part).filename) ?? text(part.title);
	const named = { ...metadata, ...(filename === undefined ? {} : { filename }) };
	const plain =
		part.source_type === 'text' || part.type === 'text-plain' ? text(part.text) : undefined;
	if (plain !== undefined) {
		const data = Buffer.from(plain, 'utf8').toString('base64');
		return { type: 'file', mimeType: media ?? 'text/plain', data, metadata: named };
	}
	const url = partUrl(part);
	const data = part.data;
	const refusal = fileRefusal(described(part), {
		mediaType: media,
		link: url,
		byId:
			part.source_type === 'id' ||
			part.fileId !== undefined ||
			openAiFile(part).file_id !== undefined,
		hasData: (typeof data === 'string' || data instanceof Uint8Array) && data.length > 0,
	});
	if (refusal !== undefined) return refusal;
	return {
		type: 'file',
		mimeType: media,
		...(url === undefined ? { data } : { url }),
		metadata: named,
	};
}

/** A user message's part ready for the adapter, or why it cannot be sent. */
function userPart(part: unknown): Json | Refusal {
	if (typeof part === 'string') return { type: 'text', text: part };
	if (!isObject(part)) {
		return {
			problem: `not a content block (${JSON.stringify(part)})`,
			fix: 'Give the message text, images or files as LangChain content blocks.',
		};
	}
	if (part.type === 'text') return part;
	const media = mediaType(part);
	const image =
		media === undefined
			? part.type === 'image' || part.type === 'image_url'
			: media.startsWith('image/');
	if (!image) {
		return part.type === 'file' || part.type === 'text-plain'
			? fileBlock(part, media)
			: cannotCarry(described(part));
	}
	if (partUrl(part) === undefined && (part.data === undefined || part.data === '')) {
		return {
			problem: `${described(part)} without url or data`,
			fix: 'Images are sent by URL, data URI or base64 data: give the block one of them.',
		};
	}
	return standardImage(part);
}

/** Every part made ready has a type; a refusal has none. */
const isRefusal = (ready: Json | Refusal): ready is Refusal => !('type' in ready);

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
			if (isRefusal(ready)) {
				throw new errors.InputError(
					`Message ${index + 1} (user)`,
					`part ${partIndex + 1} is ${ready.problem}`,
					ready.fix,
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
