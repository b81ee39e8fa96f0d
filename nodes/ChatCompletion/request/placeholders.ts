import { createHash } from 'crypto';

import type { protocol } from '../../../engine';
import { errors, media, values } from '../../../engine';

/**
 * An image or file of the output's `messages` that the item's binary data holds is kept as
 * `n8n-binary:<property>#<mark>`, in its part's `image_url.url` or `file.file_data`: a few bytes instead of the
 * whole file as base64. No service takes such a URL (it is no scheme of the web); the node turns it back into
 * the data URI before sending. The mark (the file's size in bytes and the start of its SHA-256) tells whether
 * the property still holds that file when a later turn reads it back: a loop that loads the next file into the
 * same property would otherwise send it in the earlier file's place. A placeholder written by hand may leave
 * the mark out; it then stands for whatever the property holds.
 */
const SCHEME = 'n8n-binary:';
const MARK = /#(\d+)-[0-9a-f]{16}$/;

const marks = new WeakMap<Uint8Array, string>();

/** The mark of a file's bytes, worked out once per file. */
function markOf(bytes: Uint8Array): string {
	let mark = marks.get(bytes);
	if (mark === undefined) {
		const hash = createHash('sha256').update(bytes).digest('hex');
		mark = `${bytes.length}-${hash.slice(0, 16)}`;
		marks.set(bytes, mark);
	}
	return mark;
}

/** The placeholder URL for the image or file `bytes` in binary property `name`. */
export function placeholder(name: string, bytes: Uint8Array): string {
	return `${SCHEME}${name}#${markOf(bytes)}`;
}

/** The binary property a placeholder URL names and the mark it carries; undefined for any other URL. */
function readPlaceholder(url: string): { name: string; mark?: RegExpExecArray } | undefined {
	if (!url.startsWith(SCHEME)) return undefined;
	const rest = url.slice(SCHEME.length);
	const mark = MARK.exec(rest) ?? undefined;
	return { name: mark ? rest.slice(0, mark.index) : rest, mark };
}

/** The binary property a placeholder URL names; undefined for any other URL. */
export function placeholderName(url: string): string | undefined {
	return readPlaceholder(url)?.name;
}

/** A placeholder of Messages JSON being read back: where it stands, what it says and what kind of part holds it. */
export interface PlacedPart {
	/** e.g. `messages[0].content[1]` */
	where: string;
	data: string;
	noun: 'image' | 'file';
	/** The file name the part gives, if any. */
	label?: unknown;
	/** What to do when the item no longer has the binary property. */
	fix: string;
}

const bytesText = (size: number): string => `${size.toLocaleString('en-US')} bytes`;

/**
 * Binary property `name` of the item, for a field's entry or for a placeholder read back (`placed`): an error
 * when the item has no such property, or when it holds another file than the one the placeholder was written for.
 */
export function readBinary(
	binaries: media.ItemBinaries,
	name: string,
	field: string,
	placed: PlacedPart | undefined,
	missingFix: string,
): media.BinaryFile {
	if (placed === undefined) return media.binaryProperty(binaries, name, field, '', missingFix);
	const problem = `${placed.where} is the ${placed.noun} "${SCHEME}${name}", but `;
	const file = media.binaryProperty(binaries, name, field, problem, placed.fix);
	const mark = readPlaceholder(placed.data)?.mark;
	if (mark === undefined || mark[0].slice(1) === markOf(file.bytes)) return file;
	const label = typeof placed.label === 'string' && placed.label !== '' ? ` "${placed.label}"` : '';
	const now = [file.fileName, bytesText(file.bytes.length)].filter(Boolean).join(', ');
	throw new errors.InputError(
		field,
		`${placed.where} is the ${placed.noun}${label} of ${bytesText(Number(mark[1]))} that binary property "${name}" held when the conversation was written, but "${name}" now holds another file (${now}); it is not sent in its place`,
		`Keep each ${placed.noun} of a conversation in a binary property of its own: load the next one into another property (e.g. HTTP Request's "Put Output File in Field") and name that one in the new message, so that "${name}" still holds the earlier ${placed.noun}.`,
	);
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
		if (uri === undefined) throw new Error(`Nothing was read for the placeholder ${SCHEME}${name}`);
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
