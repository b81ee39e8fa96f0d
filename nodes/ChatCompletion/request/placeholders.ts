import type { protocol } from '../../../engine';
import { values } from '../../../engine';

/**
 * An image or file of the output's `messages` that the item's binary data holds is kept as
 * `n8n-binary:<property>`, in its part's `image_url.url` or `file.file_data`: a few bytes instead of the whole
 * file as base64. No service takes such a URL (it is no scheme of the web); the node turns it back into the
 * data URI before sending.
 */
const SCHEME = 'n8n-binary:';

/** The placeholder URL for the image or file in binary property `name`. */
export function placeholder(name: string): string {
	return `${SCHEME}${name}`;
}

/** The binary property a placeholder URL names; undefined for any other URL. */
export function placeholderName(url: string): string | undefined {
	return url.startsWith(SCHEME) ? url.slice(SCHEME.length) : undefined;
}

/** Where a content part keeps its data: an image part's URL, a file part's data; undefined for others. */
function partData(part: unknown): string | undefined {
	if (!values.isPlainObject(part)) return undefined;
	const { image_url: image, file } = part;
	if (part.type === 'image_url' && values.isPlainObject(image) && typeof image.url === 'string') {
		return image.url;
	}
	if (part.type === 'file' && values.isPlainObject(file) && typeof file.file_data === 'string') {
		return file.file_data;
	}
	return undefined;
}

/**
 * The binary properties that the placeholders of a messages array name (Messages JSON, as n8n resolved it,
 * an array or its JSON text), so that their bytes are loaded; nothing for a value that is no such array, which
 * the messages' own check reports.
 */
export function placeholderNames(messages: unknown): string[] {
	const parsed = typeof messages === 'string' ? values.tryParseJson(messages) : undefined;
	const value = parsed === undefined ? messages : parsed.ok ? parsed.value : undefined;
	if (!Array.isArray(value)) return [];
	return value.flatMap((message: unknown) => {
		const content = values.isPlainObject(message) ? message.content : undefined;
		if (!Array.isArray(content)) return [];
		return content.flatMap((part: unknown) => {
			const data = partData(part);
			const name = data === undefined ? undefined : placeholderName(data);
			return name === undefined ? [] : [name];
		});
	});
}

/** The data URIs read for the placeholders, by binary property: the images' and the files'. */
export interface ReadData {
	images: ReadonlyMap<string, string>;
	files: ReadonlyMap<string, string>;
}

/**
 * The messages as they are sent: every placeholder replaced by the data URI read for its property. A
 * placeholder without one is a fault of this node, never something to send.
 */
export function resolvePlaceholders(
	messages: protocol.ChatMessage[],
	read: ReadData,
): protocol.ChatMessage[] {
	const dataUri = (name: string, sent: ReadonlyMap<string, string>): string => {
		const uri = sent.get(name);
		if (uri === undefined)
			throw new Error(`Nothing was read for the placeholder ${placeholder(name)}`);
		return uri;
	};
	const resolve = (part: protocol.ContentPart): protocol.ContentPart => {
		const name = placeholderName(partData(part) ?? '');
		if (name === undefined) return part;
		if (part.type === 'image_url') {
			return { ...part, image_url: { ...part.image_url, url: dataUri(name, read.images) } };
		}
		if (part.type === 'file') {
			return { ...part, file: { ...part.file, file_data: dataUri(name, read.files) } };
		}
		return part;
	};
	return messages.map((message) =>
		Array.isArray(message.content)
			? { ...message, content: message.content.map(resolve) }
			: message,
	);
}
