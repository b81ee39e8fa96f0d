import type { ItemFiles } from './files';
import { fileParts } from './files';
import type { ItemImages } from './images';
import { imageParts } from './images';
import { placeholderName } from './placeholders';
import type { ChatInput, FileFields, ImageFields } from './input';
import { FIELDS } from '../fields';
import { errors, protocol, values } from '../../../engine';

const ROLES: protocol.Role[] = ['system', 'developer', 'user', 'assistant', 'tool'];
const ROW_ROLES: protocol.Role[] = ['system', 'user', 'assistant'];
const JSON_FIELD = FIELDS.messagesJson.label;
const KEEP_BINARY =
	"stay in its output item's binary data: keep that binary data on the item up to this node (a node in between that drops it, such as a Code node returning only json, must pass it on)";
const PLACEHOLDER_FIX = `The images in a Chat Completion node's "messages" ${KEEP_BINARY}, or replace the image part with the image's URL.`;
const FILE_PLACEHOLDER_FIX = `The files in a Chat Completion node's "messages" ${KEEP_BINARY}, or replace file_data with the file's data URI.`;
const JSON_FIX =
	'Give an array of messages such as [{"role": "user", "content": "Hello"}], or map the "messages" field of a previous Chat Completion node with {{ $json.messages }}.';

function text(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

/** A user message's content: plain text, or text and the image and file parts when there are any. */
function userContent(text: string, parts: protocol.ContentPart[]): string | protocol.ContentPart[] {
	if (parts.length === 0) return text;
	return text.trim() === '' ? parts : [{ type: 'text', text }, ...parts];
}

/** The images and files of the item that go with a message: its image fields, then its file fields. */
interface Attachments {
	images: ItemImages;
	files: ItemFiles;
}

function attachedParts(
	fields: ImageFields & FileFields,
	place: string,
	{ images, files }: Attachments,
): protocol.ContentPart[] {
	return [...imageParts(fields, place, images), ...fileParts(fields, place, files)];
}

function fromSimple(input: ChatInput, attachments: Attachments): protocol.ChatMessage[] {
	const messages: protocol.ChatMessage[] = [];
	const system = input.systemMessage ?? '';
	const systemText = text(system);
	if (systemText === undefined) {
		throw new errors.InputError(
			FIELDS.systemMessage.label,
			`must be text, got ${values.describe(system)}`,
			'Map a text field, or turn the value into text with JSON.stringify().',
		);
	}
	if (systemText.trim() !== '') messages.push({ role: 'system', content: systemText });
	const promptText = text(input.prompt);
	if (promptText === undefined) {
		throw new errors.InputError(
			FIELDS.prompt.label,
			`must be text, got ${values.describe(input.prompt)}`,
			'Map a text field, or turn the value into text with JSON.stringify().',
		);
	}
	const parts = attachedParts(input, '', attachments);
	if (promptText.trim() === '' && parts.length === 0) {
		throw new errors.InputError(
			FIELDS.prompt.label,
			'is empty',
			'Type a prompt, or map one with an expression such as {{ $json.text }}.',
		);
	}
	messages.push({ role: 'user', content: userContent(promptText, parts) });
	return messages;
}

function fromRows(input: ChatInput, attachments: Attachments): protocol.ChatMessage[] {
	const rows = values.isPlainObject(input.messages) ? input.messages.values : undefined;
	if (!Array.isArray(rows) || rows.length === 0) {
		throw new errors.InputError(
			FIELDS.messages.label,
			'has no rows',
			'Add at least one message with "Add Message".',
		);
	}
	return rows.map((row: unknown, index): protocol.ChatMessage => {
		const place = `${FIELDS.messages.row.place} ${index + 1}`;
		const fields = values.isPlainObject(row) ? row : {};
		const role = fields.role as protocol.Role;
		if (!ROW_ROLES.includes(role)) {
			throw new errors.InputError(
				place,
				`has the unknown role ${values.named(fields.role)}`,
				'Choose system, user or assistant.',
			);
		}
		const content = text(fields.content ?? '');
		const parts = attachedParts(fields, `${place} > `, attachments);
		if (parts.length > 0 && role !== 'user') {
			throw new errors.InputError(
				place,
				`has images or files, but only user messages may carry them (this row is ${role})`,
				'Move the images and files to a user row.',
			);
		}
		if (content === undefined || (content.trim() === '' && parts.length === 0)) {
			throw new errors.InputError(
				place,
				content === undefined
					? `content must be text, got ${values.describe(fields.content)}`
					: 'has no content',
				'Type the message text, or remove the row.',
			);
		}
		return { role, content: userContent(content, parts), ...rowReasoning(fields, place) };
	});
}

/** An assistant row's Reasoning, in the field the row names; nothing when it is empty. */
function rowReasoning(fields: Record<string, unknown>, place: string): Record<string, string> {
	const { reasoning: reasoningLabel, reasoningField: fieldLabel } = FIELDS.messages.row.fields;
	if (fields.role !== 'assistant') return {};
	const reasoning = text(fields.reasoning ?? '');
	if (reasoning === undefined) {
		throw new errors.InputError(
			`${place} > ${reasoningLabel}`,
			`must be text, got ${values.describe(fields.reasoning)}`,
			"Map the reasoning text, e.g. {{ $('Chat Completion').item.json.reasoning }}.",
		);
	}
	if (reasoning === '') return {};
	const field = fields.reasoningField ?? protocol.REASONING_TEXT_FIELDS[0];
	if (
		!protocol.REASONING_TEXT_FIELDS.includes(
			field as (typeof protocol.REASONING_TEXT_FIELDS)[number],
		)
	) {
		throw new errors.InputError(
			`${place} > ${fieldLabel}`,
			`has the unknown value ${values.named(field)}`,
			`Choose ${protocol.REASONING_TEXT_FIELDS.join(' or ')}: the field the service sent the reasoning in.`,
		);
	}
	return { [field as string]: reasoning };
}

/**
 * The parts that may carry an item's binary data, by type: the field of their data, how messages name them,
 * and where a placeholder is read (the images' or the files' reader).
 */
const BINARY_PARTS = {
	image_url: {
		key: 'url',
		has: 'a url',
		noun: 'image',
		example: '{"type": "image_url", "image_url": {"url": "https://..."}}',
		placeholderFix: PLACEHOLDER_FIX,
		reader: ({ images }: Attachments) => images,
	},
	file: {
		key: 'file_data',
		has: 'file_data',
		noun: 'file',
		example:
			'{"type": "file", "file": {"filename": "report.pdf", "file_data": "data:application/pdf;base64,..."}}',
		placeholderFix: FILE_PLACEHOLDER_FIX,
		reader: ({ files }: Attachments) => files,
	},
} as const;

/**
 * An image or file part: its data must be text; a placeholder is read from the binary data now and checked as
 * the image or file fields check theirs (the part keeps its own file name).
 */
function checkBinaryPart(
	part: Record<string, unknown>,
	type: keyof typeof BINARY_PARTS,
	where: string,
	attachments: Attachments,
): protocol.ContentPart {
	const { key, has, noun, example, placeholderFix, reader } = BINARY_PARTS[type];
	const inner = part[type];
	const data = values.isPlainObject(inner) ? inner[key] : undefined;
	if (typeof data !== 'string') {
		throw new errors.InputError(
			JSON_FIELD,
			`${where}.${type} must be an object with ${has}, got ${values.describe(inner)}`,
			`Write ${noun} parts as ${example}.`,
		);
	}
	const name = placeholderName(data);
	if (name !== undefined) {
		const label = values.isPlainObject(inner) ? inner.filename : undefined;
		reader(attachments).fromBinary(name, JSON_FIELD, {
			where,
			data,
			noun,
			label,
			fix: placeholderFix,
		});
	}
	return part as unknown as protocol.ContentPart;
}

function checkParts(
	parts: unknown[],
	place: string,
	attachments: Attachments,
): protocol.ContentPart[] {
	return parts.map((part, index) => {
		const where = `${place}.content[${index}]`;
		if (!values.isPlainObject(part)) {
			throw new errors.InputError(
				JSON_FIELD,
				`${where} must be an object, got ${values.describe(part)}`,
				JSON_FIX,
			);
		}
		if (part.type === 'text') {
			if (typeof part.text !== 'string') {
				throw new errors.InputError(
					JSON_FIELD,
					`${where}.text must be text, got ${values.describe(part.text)}`,
					JSON_FIX,
				);
			}
			return part as unknown as protocol.ContentPart;
		}
		if (part.type === 'image_url' || part.type === 'file') {
			return checkBinaryPart(part, part.type, where, attachments);
		}
		throw new errors.InputError(
			JSON_FIELD,
			part.type === undefined
				? `${where} has no "type"`
				: `${where} is a ${values.named(part.type)} part, which this node cannot send (only "text", "image_url" and "file" parts)`,
			'Content parts are {"type": "text", "text": ...}, {"type": "image_url", "image_url": {"url": ...}} or {"type": "file", "file": {"filename": ..., "file_data": ...}}.',
		);
	});
}

function checkToolCalls(calls: unknown, place: string): protocol.ProtocolToolCall[] {
	if (!Array.isArray(calls)) {
		throw new errors.InputError(
			JSON_FIELD,
			`${place}.tool_calls must be an array, got ${values.describe(calls)}`,
			JSON_FIX,
		);
	}
	return calls.map((call, index) => {
		const where = `${place}.tool_calls[${index}]`;
		const fn = values.isPlainObject(call) ? call.function : undefined;
		if (
			!values.isPlainObject(call) ||
			typeof call.id !== 'string' ||
			!values.isPlainObject(fn) ||
			typeof fn.name !== 'string'
		) {
			throw new errors.InputError(
				JSON_FIELD,
				`${where} must have an id and a function with a name`,
				'Append the "message" output of the Chat Completion node that asked for the tool call, unchanged.',
			);
		}
		const args = fn.arguments;
		return {
			...call,
			id: call.id,
			type: 'function',
			function: {
				...fn,
				name: fn.name,
				// The protocol wants the arguments as JSON text; accept the parsed object too.
				arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
			},
		};
	});
}

function checkMessage(
	entry: unknown,
	index: number,
	attachments: Attachments,
): protocol.ChatMessage {
	const place = `messages[${index}]`;
	if (!values.isPlainObject(entry)) {
		throw new errors.InputError(
			JSON_FIELD,
			`${place} must be an object, got ${values.describe(entry)}`,
			JSON_FIX,
		);
	}
	const role = entry.role as protocol.Role;
	if (!ROLES.includes(role)) {
		throw new errors.InputError(
			JSON_FIELD,
			entry.role === undefined
				? `${place} has no "role"`
				: `${place} has the unknown role ${values.named(entry.role)}`,
			'Use one of the roles system, developer, user, assistant or tool.',
		);
	}
	const message: protocol.ChatMessage = { ...entry, role, content: null };
	const { content } = entry;
	if (typeof content === 'string') {
		message.content = content;
	} else if (Array.isArray(content)) {
		message.content = checkParts(content, place, attachments);
	} else if (
		!(content === null || content === undefined) ||
		role !== 'assistant' ||
		!entry.tool_calls
	) {
		throw new errors.InputError(
			JSON_FIELD,
			`${place}.content must be text or an array of content parts, got ${values.describe(content)}`,
			'Only an assistant message with tool_calls may leave content empty.',
		);
	}
	if (entry.tool_calls !== undefined) message.tool_calls = checkToolCalls(entry.tool_calls, place);
	for (const field of protocol.REASONING_TEXT_FIELDS) {
		const reasoning = entry[field];
		if (reasoning === undefined || reasoning === null || typeof reasoning === 'string') continue;
		throw new errors.InputError(
			JSON_FIELD,
			`${place}.${field} must be text, got ${values.describe(reasoning)}`,
			'Send the reasoning back as the service sent it: append the "message" output of the Chat Completion node unchanged.',
		);
	}
	if (role === 'tool' && typeof entry.tool_call_id !== 'string') {
		throw new errors.InputError(
			JSON_FIELD,
			`${place} is a tool result without tool_call_id`,
			'Set tool_call_id to the id of the tool call this result answers.',
		);
	}
	return message;
}

function fromJson(input: ChatInput, attachments: Attachments): protocol.ChatMessage[] {
	const value = values.parseJsonField(input.messagesJson, JSON_FIELD, JSON_FIX);
	if (!Array.isArray(value)) {
		throw new errors.InputError(
			JSON_FIELD,
			`must be an array of messages, got ${values.describe(value)}`,
			JSON_FIX,
		);
	}
	if (value.length === 0) {
		throw new errors.InputError(JSON_FIELD, 'is an empty array', JSON_FIX);
	}
	return value.map((entry, index) => checkMessage(entry, index, attachments));
}

/**
 * Turns the prompt fields of one item into protocol messages, or says which field is wrong. Images from binary
 * data and data URIs, and files, are placeholders, which `images` and `files` hold the data of.
 */
export function buildMessages(
	input: ChatInput,
	images: ItemImages,
	files: ItemFiles,
): protocol.ChatMessage[] {
	const attachments = { images, files };
	switch (input.promptType) {
		case 'simple':
			return fromSimple(input, attachments);
		case 'messages':
			return fromRows(input, attachments);
		case 'json':
			return fromJson(input, attachments);
		default:
			throw new errors.InputError(
				FIELDS.promptType.label,
				`has the unknown type ${values.named(input.promptType)}`,
				'Choose Simple, Messages or JSON.',
			);
	}
}
