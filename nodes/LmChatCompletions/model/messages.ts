import type { ContentFile, Message, MessageContent } from '@n8n/ai-node-sdk';

import { recallCall } from './call-memory';
import { dataUriType } from './data-uri';
import { carriage, fileName, fileRefusal, fileText } from './file-parts';
import type { protocol } from '../../../engine';
import { errors, media, values } from '../../../engine';

/**
 * n8n's AI messages (the SDK's `Message`) into the protocol's messages, cleaned on the way: whatever the
 * AI node hands over, the service gets a conversation it accepts. An assistant message that made tool
 * calls gets back the reasoning the service sent with them, its fields or its `<think>` content (the AI
 * Agent drops it; DeepSeek's thinking mode refuses the message without); no other message gets reasoning;
 * an assistant message that only calls tools has `content: null` (not an empty array); tool-call arguments
 * are the model's own text again; parallel calls that the AI Agent split into one assistant message each
 * are one assistant message again, followed by their results.
 */

const FIELD = 'Conversation';

function texts(parts: readonly MessageContent[]): string {
	return parts
		.filter((part) => part.type === 'text')
		.map((part) => (part as { text: string }).text)
		.join('');
}

function base64(data: string | Uint8Array): string {
	return typeof data === 'string' ? data : Buffer.from(data).toString('base64');
}

/**
 * A file's bytes: a data URI's payload (base64 or percent-encoded), else its base64 data or bytes; `head`:
 * only the first few dozen, enough to tell what the file is.
 */
function fileBytes(data: string | Uint8Array, dataUri: string | undefined, head = false): Buffer {
	const cut = (base64: string) => (head ? base64.slice(0, 88) : base64);
	if (dataUri === undefined) {
		return typeof data === 'string' ? Buffer.from(cut(data), 'base64') : Buffer.from(data);
	}
	const comma = dataUri.indexOf(',');
	const payload = dataUri.slice(comma + 1);
	return /;base64$/i.test(dataUri.slice(0, comma))
		? Buffer.from(cut(payload), 'base64')
		: Buffer.from(decodeURIComponent(payload), 'utf8');
}

/** A text file's content. */
function decodedText(data: string | Uint8Array, dataUri: string | undefined): string {
	return fileBytes(data, dataUri).toString('utf8');
}

/**
 * A file of type application/pdf whose bytes are none is refused before sending (the service would answer a
 * 400 that names none of it), in words for whoever handed it over: an agent's tool, a chat user.
 */
function checkPdf(bytes: Uint8Array, filename: unknown): void {
	const instead = media.notPdf(bytes);
	if (instead === undefined) return;
	const name = typeof filename === 'string' && filename !== '' ? ` "${filename}"` : '';
	throw new errors.InputError(
		FIELD,
		`holds a file${name} sent as a PDF, but it is ${instead} (a PDF starts with %PDF-)`,
		"The file is not the PDF it is named: a download that failed often saves an error or login page under the PDF's name. Fetch the PDF itself again (the address must give the file, not a page), then send it.",
		`The file${name} is not a PDF${instead === 'not a PDF' ? '' : `: it is ${instead}`}. Please upload the PDF itself.`,
	);
}

/**
 * A file as the part that carries it: an image as an `image_url` part (its URL, or a data URI made of its
 * bytes), a text file as text, any other file (a PDF) as a `file` part with a data URI; refused with the
 * fix when chat completions cannot carry it.
 */
function filePart(file: ContentFile): protocol.ContentPart {
	const metadata = file.providerMetadata ?? {};
	// The adapter leaves `data` out of a block given by URL.
	const data = (file.data as ContentFile['data'] | undefined) ?? '';
	const url = typeof metadata.url === 'string' && metadata.url !== '' ? metadata.url : undefined;
	const dataUri = typeof data === 'string' && data.startsWith('data:') ? data : undefined;
	const link = url ?? dataUri;
	const named = file.mediaType ?? dataUriType(link);
	const mediaType = named === '' ? undefined : named;
	// An address without a media type is taken for an image's, as `image_url` parts give them.
	const image = mediaType === undefined ? link !== undefined : carriage(mediaType) === 'image';
	if (image) {
		const detail = metadata.detail;
		const imageUrl = link ?? `data:${mediaType};base64,${base64(data)}`;
		return {
			type: 'image_url',
			image_url: typeof detail === 'string' ? { url: imageUrl, detail } : { url: imageUrl },
		};
	}
	const refusal = fileRefusal(mediaType === undefined ? 'a file' : `a file of type ${mediaType}`, {
		mediaType,
		link,
		byId: typeof metadata.fileId === 'string',
		hasData: data.length > 0,
	});
	if (refusal !== undefined)
		throw new errors.InputError(FIELD, `holds ${refusal.problem}`, refusal.fix);
	const type = mediaType as string;
	const fileDataUri = link?.startsWith('data:') === true ? link : undefined;
	if (carriage(type) === 'text') {
		return { type: 'text', text: fileText(decodedText(data, fileDataUri), metadata.filename) };
	}
	if (type === 'application/pdf') checkPdf(fileBytes(data, fileDataUri, true), metadata.filename);
	return {
		type: 'file',
		file: {
			filename: fileName(type, metadata.filename),
			file_data: fileDataUri ?? `data:${type};base64,${base64(data)}`,
		},
	};
}

function userContent(parts: readonly MessageContent[]): string | protocol.ContentPart[] {
	if (!parts.some((part) => part.type === 'file')) return texts(parts);
	return parts.flatMap((part): protocol.ContentPart[] => {
		if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
		if (part.type === 'file') return [filePart(part)];
		return [];
	});
}

/** The same JSON value, whatever the key order. */
function sameJson(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) || Array.isArray(b)) {
		return (
			Array.isArray(a) &&
			Array.isArray(b) &&
			a.length === b.length &&
			a.every((item, index) => sameJson(item, b[index]))
		);
	}
	if (values.isPlainObject(a) && values.isPlainObject(b)) {
		const keys = Object.keys(a);
		return (
			keys.length === Object.keys(b).length &&
			keys.every((key) => key in b && sameJson(a[key], b[key]))
		);
	}
	return a === b;
}

/**
 * The arguments to send back for a call: the model's own text when the memory has it and it says the
 * same, else the agent's object without the `id` key the AI Agent adds (the call's own id).
 */
function callArguments(id: string | undefined, name: string, input: string): string {
	const parsed = values.tryParseJson(input === '' ? '{}' : input);
	if (!parsed.ok) return input;
	const args = parsed.value;
	const withoutId =
		values.isPlainObject(args) && id !== undefined && args.id === id
			? Object.fromEntries(Object.entries(args).filter(([key]) => key !== 'id'))
			: args;
	const remembered = recallCall(id);
	if (remembered !== undefined && remembered.name === name) {
		const original = values.tryParseJson(remembered.arguments === '' ? '{}' : remembered.arguments);
		if (original.ok && (sameJson(original.value, args) || sameJson(original.value, withoutId))) {
			return remembered.arguments;
		}
	}
	return JSON.stringify(withoutId);
}

function assistantMessage(message: Message): protocol.ChatMessage {
	const toolCalls: protocol.ProtocolToolCall[] = [];
	for (const part of message.content) {
		if (part.type !== 'tool-call') continue;
		const id = part.toolCallId ?? `call_${toolCalls.length}`;
		toolCalls.push({
			id,
			type: 'function',
			function: { name: part.toolName, arguments: callArguments(id, part.toolName, part.input) },
		});
	}
	const text = texts(message.content);
	if (toolCalls.length === 0) return { role: 'assistant', content: text };
	return {
		role: 'assistant',
		content: text === '' ? null : text,
		...recallCall(toolCalls[0].id)?.reasoning,
		tool_calls: toolCalls,
	};
}

/** A tool's result as the text the protocol wants: text as it is, anything else as JSON. */
function resultText(result: unknown): string {
	if (typeof result === 'string') return result;
	if (
		Array.isArray(result) &&
		result.every((part) => values.isPlainObject(part) && part.type === 'text')
	) {
		return result.map((part) => String((part as { text: unknown }).text)).join('');
	}
	return JSON.stringify(result ?? '');
}

function toolMessages(message: Message): protocol.ChatMessage[] {
	return message.content.flatMap((part): protocol.ChatMessage[] =>
		part.type === 'tool-result'
			? [{ role: 'tool', tool_call_id: part.toolCallId, content: resultText(part.result) }]
			: [],
	);
}

function convert(message: Message): protocol.ChatMessage[] {
	switch (message.role) {
		case 'system':
			return [{ role: 'system', content: texts(message.content) }];
		case 'user':
			return [{ role: 'user', content: userContent(message.content) }];
		case 'assistant':
			return [assistantMessage(message)];
		case 'tool':
			return toolMessages(message);
		default:
			return [{ role: 'user', content: texts(message.content) }];
	}
}

const callsOnly = (message: protocol.ChatMessage | undefined): message is protocol.ChatMessage =>
	message?.role === 'assistant' &&
	message.content === null &&
	Array.isArray(message.tool_calls) &&
	message.tool_calls.length > 0;

/**
 * Joins the calls of one reply that arrive as assistant-and-results pairs (the AI Agent's way) into one
 * assistant message followed by all their results, the model's order kept. Only calls the memory knows
 * to come from the same reply are joined: sequential calls stay as they are.
 */
function joinParallelCalls(messages: protocol.ChatMessage[]): protocol.ChatMessage[] {
	const joined: protocol.ChatMessage[] = [];
	for (let index = 0; index < messages.length; ) {
		const first = messages[index];
		const reply = callsOnly(first) ? recallCall(first.tool_calls?.[0].id)?.reply : undefined;
		if (reply === undefined || reply.length < 2) {
			joined.push(first);
			index++;
			continue;
		}
		const calls: protocol.ProtocolToolCall[] = [];
		const results: protocol.ChatMessage[] = [];
		let next = index;
		while (callsOnly(messages[next])) {
			const assistant = messages[next];
			if (!(assistant.tool_calls ?? []).every((call) => reply.includes(call.id))) break;
			calls.push(...(assistant.tool_calls ?? []));
			next++;
			while (messages[next]?.role === 'tool') results.push(messages[next++]);
		}
		const order = (call: protocol.ProtocolToolCall) => reply.indexOf(call.id);
		calls.sort((a, b) => order(a) - order(b));
		joined.push(
			{
				role: 'assistant',
				content: null,
				...recallCall(calls[0].id)?.reasoning,
				tool_calls: calls,
			},
			...results,
		);
		index = next;
	}
	return joined;
}

/** The conversation to send, from the messages an AI node passed to the model. */
export function protocolMessages(messages: readonly Message[]): protocol.ChatMessage[] {
	if (messages.length === 0) {
		throw new errors.InputError(FIELD, 'is empty', 'Give the AI node a prompt to send.');
	}
	return joinParallelCalls(messages.flatMap(convert));
}
