/**
 * `npm run bench`: the stream assembler as built into dist against the official openai SDK's stream
 * parser, on the same bytes in the same run. A 10 MB reply (some of it multi-byte text) as ~100,000
 * chat.completion.chunk events is fed in 64 KiB network-sized pieces; both sides decode the bytes,
 * parse the events and join the reply text. Prints throughput (MB of SSE body a second) and the memory
 * held above the run's start while streaming and at the join, the largest moment (medians of several
 * runs); asserts nothing. Needs `node --expose-gc` and a built dist (scripts/bench.sh does both).
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import process from 'node:process';

import { Stream } from 'openai/core/streaming';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { VERSION as sdkVersion } from 'openai/version';

import { median } from './bench/stats.mts';

const REPLY_BYTES = 10 * 1024 * 1024;
const EVENTS = 100_000;
const PIECE_BYTES = 64 * 1024;
const SPEED_RUNS = 7;
const MEMORY_RUNS = 3;
/** Memory is sampled (after a full garbage collection) every this many pieces, and at the end. */
const SAMPLE_EVERY = 8;

const root = resolve(import.meta.dirname, '..');
const { createStreamAssembler } = createRequire(import.meta.url)(
	resolve(root, 'dist/engine/reply/stream.js'),
) as {
	/** The engine's assembler as built (engine/reply/stream.ts), as far as it is measured here. */
	createStreamAssembler(options: { status: number }): {
		feed(text: string): void;
		finish(): { choices: Array<{ message?: { content?: unknown } }> };
	};
};

const exposedGc = (globalThis as { gc?: () => void }).gc;
if (exposedGc === undefined) {
	console.error('Run with node --expose-gc (npm run bench does).');
	process.exit(1);
}
const gc: () => void = exposedGc;

/** The SSE body: realistic chunks whose deltas add up to REPLY_BYTES of UTF-8 text, every 8th with multi-byte words. */
function buildBody(): { bytes: Uint8Array; reply: string } {
	const words = [
		'the',
		'model',
		'streams',
		'its',
		'answer',
		'token',
		'by',
		'token,',
		'and',
		'so',
		'on.',
		'Then',
		'it',
		'stops',
	];
	const special = ['東京タワー', '🗼👋🏽', 'naïve café', 'Grüße', '∑x² ≠ 0', '—'];
	const encoder = new TextEncoder();
	const header =
		'{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"echo-1"';
	const events: string[] = [];
	const deltas: string[] = [];
	let total = 0;
	let word = 0;
	for (let event = 0; event < EVENTS; event++) {
		let delta = event % 8 === 0 ? `${special[(event / 8) % special.length]} ` : '';
		const target = Math.round(((event + 1) * REPLY_BYTES) / EVENTS);
		while (total + encoder.encode(delta).length < target)
			delta += `${words[word++ % words.length]} `;
		total += encoder.encode(delta).length;
		deltas.push(delta);
		events.push(
			`data: ${header},"choices":[{"index":0,"delta":{"content":${JSON.stringify(delta)}},"finish_reason":null}]}\n\n`,
		);
	}
	events.push(`data: ${header},"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n`);
	events.push(
		`data: ${header},"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${EVENTS},"total_tokens":${EVENTS + 12}}}\n\n`,
	);
	events.push('data: [DONE]\n\n');
	return { bytes: encoder.encode(events.join('')), reply: deltas.join('') };
}

const { bytes, reply } = buildBody();
const replyBytes = new TextEncoder().encode(reply).length;
const pieces: Uint8Array[] = [];
for (let start = 0; start < bytes.length; start += PIECE_BYTES)
	pieces.push(bytes.subarray(start, start + PIECE_BYTES));

const usedBytes = () => {
	const { heapUsed, external } = process.memoryUsage();
	return heapUsed + external;
};

interface Memory {
	/** The most memory held while the events came in (after a full collection, every SAMPLE_EVERY pieces). */
	streaming: number;
	/** Memory held once the text is joined, with its pieces still alive: the largest moment of a run. */
	end: number;
}

/** Memory samples above the run's start, each after a full collection; does nothing unless `sampling`. */
function sampler(sampling: boolean) {
	const measure = () => {
		gc();
		return usedBytes();
	};
	const baseline = sampling ? measure() : 0;
	const memory: Memory = { streaming: 0, end: 0 };
	return {
		streaming() {
			if (sampling) memory.streaming = Math.max(memory.streaming, measure() - baseline);
		},
		end() {
			if (sampling) memory.end = measure() - baseline;
			return memory;
		},
	};
}

type Side = (sampling: boolean) => Promise<{ text: string; memory: Memory }>;

const assembler: Side = async (sampling) => {
	const memory = sampler(sampling);
	const decoder = new TextDecoder();
	const stream = createStreamAssembler({ status: 200 });
	pieces.forEach((piece, index) => {
		stream.feed(decoder.decode(piece, { stream: true }));
		if (index % SAMPLE_EVERY === 0) memory.streaming();
	});
	stream.feed(decoder.decode());
	const text = String(stream.finish().choices[0].message?.content);
	return { text, memory: memory.end() };
};

const sdk: Side = async (sampling) => {
	const memory = sampler(sampling);
	let next = 0;
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (next % SAMPLE_EVERY === 0) memory.streaming();
			if (next < pieces.length) controller.enqueue(pieces[next++]);
			else controller.close();
		},
	});
	const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
	const parts: string[] = [];
	for await (const chunk of Stream.fromSSEResponse<ChatCompletionChunk>(
		response,
		new AbortController(),
	)) {
		const content = chunk.choices[0]?.delta?.content;
		if (content) parts.push(content);
	}
	const text = parts.join('');
	const held = memory.end();
	// The parts stay alive up to the sample, as the assembler's pieces do when it joins them.
	parts.length = 0;
	return { text, memory: held };
};

const mb = (value: number) => (value / 1024 / 1024).toFixed(1);

/** Lets the previous run's promises settle and collects its garbage, so that a run starts from a clean heap. */
async function settle() {
	await new Promise((resolve) => setImmediate(resolve));
	gc();
	gc();
}

async function measure(side: Side) {
	const speeds: number[] = [];
	const memories: Memory[] = [];
	let same = true;
	for (let run = 0; run < SPEED_RUNS; run++) {
		await settle();
		const started = performance.now();
		const { text } = await side(false);
		speeds.push(bytes.length / 1024 / 1024 / ((performance.now() - started) / 1000));
		same &&= text === reply;
	}
	for (let run = 0; run < MEMORY_RUNS; run++) {
		await settle();
		memories.push((await side(true)).memory);
	}
	return {
		speed: median(speeds),
		streaming: median(memories.map(({ streaming }) => streaming)),
		end: median(memories.map(({ end }) => end)),
		same,
	};
}

// Warm both up once, so that neither pays for the other's JIT compilation.
await assembler(false);
await sdk(false);
const ours = await measure(assembler);
const theirs = await measure(sdk);

/** V8 keeps a string with any character beyond Latin-1 as UTF-16: two bytes a character. */
const replyInMemory = reply.length * (/[^\u0000-\u00ff]/.test(reply) ? 2 : 1);
console.log(
	`Reply: ${mb(replyBytes)} MB of UTF-8 text (${mb(replyInMemory)} MB as a string in memory) in ` +
		`${EVENTS.toLocaleString('en')} events; SSE body ${mb(bytes.length)} MB in ${pieces.length} pieces of 64 KiB; ` +
		`Node ${process.versions.node}; medians of ${SPEED_RUNS} runs (speed) and ${MEMORY_RUNS} (memory)`,
);
const row = (name: string, { speed, streaming, end, same }: typeof ours) =>
	console.log(
		`${name.padEnd(40)} ${speed.toFixed(0).padStart(5)} MB/s   memory +${mb(streaming).padStart(5)} MB while ` +
			`streaming, +${mb(end).padStart(5)} MB at the join (${(end / replyBytes).toFixed(2)}x the UTF-8 reply, ` +
			`${(end / replyInMemory).toFixed(2)}x the reply string)   reply text ${same ? 'identical' : 'DIFFERENT'}`,
	);
row('stream assembler (dist)', ours);
row(`openai ${sdkVersion} Stream.fromSSEResponse`, theirs);
console.log(
	`Assembler / SDK: speed ${(ours.speed / theirs.speed).toFixed(2)}x, memory at the join ${(ours.end / theirs.end).toFixed(2)}x`,
);
