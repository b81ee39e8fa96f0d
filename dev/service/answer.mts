/** Writes a completion as one JSON body or as an SSE stream, shaped by the knobs. */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { BodyWriter } from './body-writer.mts';
import type { ChunkPlan } from './completion-chunks.mts';
import type { Knobs } from './knobs.mts';
import { SseWriter } from './sse.mts';

/** What `error_after` and `event_error` send inside the stream. */
const streamError = {
	error: { message: 'upstream stream failed', type: 'server_error', code: 'stream_error' },
};

/** `stall_body_ms`: headers first, the body after the stall; `split_bytes`: the body in pieces. */
export async function sendCompletion(
	res: ServerResponse,
	body: object,
	knobs: Knobs,
): Promise<void> {
	const text = JSON.stringify(body);
	res.writeHead(200, {
		'Content-Type': 'application/json',
		'Content-Length': String(Buffer.byteLength(text)),
	});
	if (knobs.stallBodyMs > 0) {
		res.flushHeaders();
		await delay(knobs.stallBodyMs);
	}
	const writer = new BodyWriter(res, knobs.splitBytes);
	await writer.write(text);
	await writer.end();
}

type StreamEvent = { data: object; event?: string } | 'done';

/**
 * The events of the stream: normally first, deltas, finish, usage, [DONE]. `event_error` ends after the
 * first chunk with an `event: error` event; `error_after` N ends after N deltas with an error chunk (and
 * [DONE] with `done_after_error`); `cut_after` N ends after N deltas; `no_finish_done` drops the finish chunk.
 */
function streamEvents(plan: ChunkPlan, knobs: Knobs): StreamEvent[] {
	const data = (chunk: object): StreamEvent => ({ data: chunk });
	const first = data(plan.first);
	if (knobs.eventError) return [first, { data: streamError, event: 'error' }];
	if (knobs.errorAfter !== undefined) {
		return [
			first,
			...plan.deltas.slice(0, knobs.errorAfter).map(data),
			data(streamError),
			...(knobs.doneAfterError ? ['done' as const] : []),
		];
	}
	if (knobs.cutAfter !== undefined) {
		return [first, ...plan.deltas.slice(0, knobs.cutAfter).map(data)];
	}
	return [
		first,
		...plan.deltas.map(data),
		...(knobs.noFinishDone ? [] : [data(plan.finish)]),
		...(plan.usage === undefined ? [] : [data(plan.usage)]),
		'done',
	];
}

/**
 * `comments`: an `: OPENROUTER PROCESSING` comment first and `: keep-alive` between events;
 * `stall_body_ms` after the first chunk; `delay_ms` between events. Stops early when the client goes.
 */
export async function streamCompletion(
	res: ServerResponse,
	plan: ChunkPlan,
	knobs: Knobs,
): Promise<void> {
	const sse = new SseWriter(res, knobs);
	if (knobs.comments) await sse.comment('OPENROUTER PROCESSING');
	for (const [index, event] of streamEvents(plan, knobs).entries()) {
		if (res.destroyed) return;
		if (index === 1 && knobs.stallBodyMs > 0) await sse.pause(knobs.stallBodyMs);
		if (index > 0 && knobs.delayMs > 0) await sse.pause(knobs.delayMs);
		if (index > 0 && knobs.comments) await sse.comment('keep-alive');
		await (event === 'done' ? sse.done() : sse.json(event.data, event.event));
	}
	await sse.end();
}
