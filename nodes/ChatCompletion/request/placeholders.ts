import type { ChatMessage, ContentPart } from '../../../engine';
import { isPlainObject, tryParseJson } from '../../../engine';

/**
 * An image of the output's `messages` that the item's binary data holds is kept as `n8n-binary:<property>`
 * in its part's `image_url.url`: a few bytes instead of the whole image as base64. No service takes such a
 * URL (it is no scheme of the web); the node turns it back into the image's data URI before sending.
 */
const SCHEME = 'n8n-binary:';

/** The placeholder URL for the image in binary property `name`. */
export function placeholder(name: string): string {
	return `${SCHEME}${name}`;
}

/** The binary property a placeholder URL names; undefined for any other URL. */
export function placeholderName(url: string): string | undefined {
	return url.startsWith(SCHEME) ? url.slice(SCHEME.length) : undefined;
}

/**
 * The binary properties that the placeholders of a messages array name (Messages JSON, as n8n resolved it,
 * an array or its JSON text), so that their bytes are loaded; nothing for a value that is no such array, which
 * the messages' own check reports.
 */
export function placeholderNames(messages: unknown): string[] {
	const parsed = typeof messages === 'string' ? tryParseJson(messages) : undefined;
	const value = parsed === undefined ? messages : parsed.ok ? parsed.value : undefined;
	if (!Array.isArray(value)) return [];
	return value.flatMap((message: unknown) => {
		const content = isPlainObject(message) ? message.content : undefined;
		if (!Array.isArray(content)) return [];
		return content.flatMap((part: unknown) => {
			const image = isPlainObject(part) ? part.image_url : undefined;
			const name =
				isPlainObject(image) && typeof image.url === 'string'
					? placeholderName(image.url)
					: undefined;
			return name === undefined ? [] : [name];
		});
	});
}

/**
 * The messages as they are sent: every placeholder replaced by the data URI `sent` holds for its
 * property. A placeholder without one is a fault of this node, never something to send.
 */
export function resolvePlaceholders(
	messages: ChatMessage[],
	sent: ReadonlyMap<string, string>,
): ChatMessage[] {
	const resolve = (part: ContentPart): ContentPart => {
		if (part.type !== 'image_url') return part;
		const name = placeholderName(part.image_url.url);
		if (name === undefined) return part;
		const url = sent.get(name);
		if (url === undefined) {
			throw new Error(`No image was read for the placeholder ${placeholder(name)}`);
		}
		return { ...part, image_url: { ...part.image_url, url } };
	};
	return messages.map((message) =>
		Array.isArray(message.content)
			? { ...message, content: message.content.map(resolve) }
			: message,
	);
}
