/** A model's reply as the chunks of a stream, before the stream knobs shape it. */
import type { ToolCall } from './chat-messages.mts';
import { finishReason, imagesOf, type CompletionMeta, type Usage } from './completion.mts';
import type { Knobs } from './knobs.mts';
import type { CompletionReply } from './models/model.mts';
import { wordPieces } from './words.mts';

/** The chunks of one reply, in order: first, deltas, finish, then usage when include_usage asked. */
export interface ChunkPlan {
	/** The role chunk. */
	first: object;
	/** One chunk per piece of reasoning, content or refusal, or per tool-call delta (after any content). */
	deltas: object[];
	/** The chunk with the finish_reason. */
	finish: object;
	/** The usage chunk, with no choices. */
	usage?: object;
}

/** Tool-call arguments go out in pieces of this many characters. */
const argumentPieceChars = 5;

/**
 * Per call a first delta with index, id, type, name and empty arguments; then the arguments in pieces,
 * the calls' pieces interleaved (call 0, call 1, call 0, ...).
 */
function toolCallDeltas(calls: readonly ToolCall[]): object[] {
	const heads = calls.map((call, index) => ({
		tool_calls: [
			{
				index,
				id: call.id,
				type: 'function',
				function: { name: call.function.name, arguments: '' },
			},
		],
	}));
	const pieces = calls.map((call) => {
		const characters = Array.from(call.function.arguments);
		return Array.from({ length: Math.ceil(characters.length / argumentPieceChars) }, (_, piece) =>
			characters.slice(piece * argumentPieceChars, (piece + 1) * argumentPieceChars).join(''),
		);
	});
	const rounds = Math.max(0, ...pieces.map((list) => list.length));
	const interleaved = Array.from({ length: rounds }, (_, round) =>
		pieces.flatMap((list, index) =>
			round < list.length
				? [{ tool_calls: [{ index, function: { arguments: list[round] } }] }]
				: [],
		),
	).flat();
	return [...heads, ...interleaved];
}

function textDeltas(reply: CompletionReply, knobs: Knobs): object[] {
	if (reply.kind === 'refusal') {
		return wordPieces(reply.refusal, knobs.chunkWords).map((piece) => ({ refusal: piece }));
	}
	const reasoning = wordPieces(reply.reasoningContent ?? '', knobs.chunkWords).map((piece) => ({
		[knobs.reasoningField]: piece,
	}));
	const content = wordPieces(reply.content ?? '', knobs.chunkWords).map((piece) => ({
		content: piece,
	}));
	if (reply.kind === 'tool_calls') {
		return [...reasoning, ...content, ...toolCallDeltas(reply.toolCalls)];
	}
	// An image model's images come in one delta after the text, as OpenRouter streams them.
	const { images } = imagesOf(reply);
	return [...reasoning, ...content, ...(images === undefined ? [] : [{ images }])];
}

/** `chunk_words`, `reasoning_field` and `role_every_delta` shape the deltas. */
export function completionChunks(
	reply: CompletionReply,
	meta: CompletionMeta,
	usage: Usage | undefined,
	knobs: Knobs,
): ChunkPlan {
	const head = {
		id: meta.id,
		object: 'chat.completion.chunk',
		created: meta.created,
		model: meta.model,
	};
	const role = { role: 'assistant' };
	const chunk = (delta: object, reason: string | null = null): object => ({
		...head,
		choices: [
			{
				index: 0,
				delta: knobs.roleEveryDelta ? { ...role, ...delta } : delta,
				finish_reason: reason,
			},
		],
	});
	return {
		first: chunk(role),
		deltas: textDeltas(reply, knobs).map((delta) => chunk(delta)),
		finish: chunk({}, finishReason(reply)),
		...(usage === undefined ? {} : { usage: { ...head, choices: [], usage } }),
	};
}
