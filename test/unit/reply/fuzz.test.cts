/**
 * Fuzz: the response parsers and the stream assembler on up to 100,000+ seeded random and mutated bodies
 * (valid completions, error bodies, model lists and SSE streams with bytes flipped, inserted, deleted,
 * truncated; random JSON; `null` in every field; deep nesting; huge numbers; unicode; large hostile
 * bodies). Nothing may throw but the node's own ServiceError and ReplyError, and no call may take
 * longer than BUDGET_MS (a call over it is run twice more, and only the fastest run counts). Reproduce a run with FUZZ_SEED=<seed>. FUZZ_INPUTS sets how many random inputs
 * follow the systematic ones: 5,000 in the unit loop, 100,000 in npm test (scripts/test.sh).
 */
import { readBody } from '../../../engine/reply/body';
import { parseCompletion } from '../../../engine/reply/completion';
import type { Completion } from '../../../engine/protocol';
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { parseModels } from '../../../engine/reply/models';
import { ReplyError, ServiceError } from '../../../engine/failures/errors';
import { createStreamAssembler } from '../../../engine/reply/stream';
import { replyItem } from '../../../nodes/ChatCompletion/execute/reply-item';
import type { HttpReply } from '../../../engine/transport/outgoing';
import { leastTimeMs } from '../../support/least-time.cts';
import { seededRandom } from '../../support/sse.cts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_517);
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 5_000);
const BUDGET_MS = 500;
/** Large hostile bodies: linear parsing takes a millisecond, anything quadratic takes seconds. */
const LARGE = 192 * 1024;

const random = seededRandom(SEED);
const int = (below: number) => Math.floor(random() * below);
function pick<T>(list: readonly T[]): T {
	return list[int(list.length)];
}

const STRINGS = [
	'',
	' ',
	'None',
	'null',
	'[DONE]',
	'stop',
	'tool_calls',
	'assistant',
	'function',
	'東京 🗼👋🏽',
	'\u0000',
	'\ud800',
	'\r\n',
	'<think>a</think>b',
	'<html>',
	'"',
	'\\',
	'data: ',
	'x'.repeat(300),
];
const NUMBERS = [0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 5e-324];
const FIELDS = [
	'id',
	'object',
	'created',
	'model',
	'choices',
	'index',
	'message',
	'delta',
	'role',
	'content',
	'reasoning_content',
	'reasoning',
	'tool_calls',
	'type',
	'function',
	'name',
	'arguments',
	'finish_reason',
	'usage',
	'total_tokens',
	'error',
	'code',
	'param',
	'detail',
	'msg',
	'data',
	'owned_by',
];
const TOKENS = [
	'{',
	'}',
	'[',
	']',
	'"',
	':',
	',',
	'\\',
	'\\u',
	'\n',
	'\r',
	'\r\n',
	'\n\n',
	'data: ',
	'data:',
	'event: error\n',
	': keep-alive\n',
	'[DONE]',
	'null',
	'1e400',
	'-0',
	'9'.repeat(400),
	'\u0000',
	'\ud83d',
	'é',
	'東',
	'<',
	'>',
	'<title>',
	'</h1>',
];
const STATUSES = [201, 400, 401, 402, 403, 404, 429, 500, 502, 503, 504, 0, 99, 600];
const RETRY_AFTER = [
	'0',
	'1.5',
	'',
	' 7 ',
	'abc',
	'-1',
	'1e400',
	'9'.repeat(400),
	'Wed, 21 Oct 2015 07:28:00 GMT',
	'Fri, 31 Dec 9999 23:59:59 GMT',
];

type Json = null | boolean | number | string | Json[] | { [field: string]: Json };

function randomJson(depth: number): Json {
	const choice = int(depth > 0 ? 8 : 4);
	if (choice === 0) return null;
	if (choice === 1) return random() < 0.5;
	if (choice === 2) return pick(NUMBERS);
	if (choice === 3)
		return random() < 0.7
			? pick(STRINGS)
			: String.fromCharCode(...Array.from({ length: int(12) }, () => int(0x3000)));
	if (choice < 6) return Array.from({ length: int(4) }, () => randomJson(depth - 1));
	return Object.fromEntries(
		Array.from({ length: int(5) }, () => [pick(FIELDS), randomJson(depth - 1)]),
	);
}

const toolCall = (index: number): Json => ({
	index,
	id: `call_${index}`,
	type: 'function',
	function: { name: 'weather', arguments: '{"city":"Paris"}' },
});
const completion = (): Json => ({
	id: 'chatcmpl-1',
	object: 'chat.completion',
	created: 1_700_000_000,
	model: 'echo-1',
	choices: [
		{
			index: 0,
			message: {
				role: 'assistant',
				content: pick(STRINGS),
				reasoning_content: 'why',
				tool_calls: [toolCall(0), toolCall(1)],
			},
			finish_reason: 'stop',
		},
	],
	usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
});
const ERROR_BODIES: Json[] = [
	{ error: { message: 'Upstream failed', type: 'None', code: 'model_not_found', param: null } },
	{ error: 'Unauthorized' },
	{ detail: 'field required' },
	{ message: 'rate limited', code: 429 },
];
const copy = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;
const errorBody = (): Json => copy(pick(ERROR_BODIES));
const modelList = (): Json => ({
	object: 'list',
	data: [
		{ id: 'echo-1', object: 'model', owned_by: 'local' },
		{ id: 'b', owned_by: 7 },
	],
});
const chunks = (): Json[] => [
	{
		id: 'c1',
		model: 'echo-1',
		choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
	},
	{
		id: 'c1',
		choices: [{ index: 0, delta: { reasoning_content: 'hm', tool_calls: [toolCall(0)] } }],
	},
	{ id: 'c1', choices: [{ index: 0, delta: { content: 'lo 東京' }, finish_reason: 'stop' }] },
	{ id: 'c1', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
];

/** Every container and field name in a value, to replace one of them. */
function slots(
	value: Json,
	found: Array<[Json[] | { [field: string]: Json }, string | number]> = [],
) {
	if (value !== null && typeof value === 'object') {
		for (const key of Object.keys(value)) {
			const slot: [typeof value, string | number] = Array.isArray(value)
				? [value, Number(key)]
				: [value, key];
			found.push(slot);
			slots((value as Record<string, Json>)[key], found);
		}
	}
	return found;
}

function mutateValue(value: Json): Json {
	for (let times = 1 + int(3); times > 0; times--) {
		const all = slots(value);
		if (all.length === 0) return randomJson(3);
		const [container, key] = pick(all);
		const replacement = pick<() => Json | undefined>([
			() => null,
			() => undefined,
			() => [],
			() => ({}),
			() => '',
			() => 'None',
			() => 1e308,
			() => -1,
			() => randomJson(2),
		])();
		if (replacement === undefined && !Array.isArray(container)) delete container[key];
		else (container as Record<string | number, Json>)[key] = replacement ?? null;
	}
	return value;
}

function mutateText(text: string): string {
	let out = text;
	for (let times = 1 + int(4); times > 0; times--) {
		const at = int(out.length + 1);
		const op = int(7);
		if (op === 0) out = out.slice(0, at) + String.fromCharCode(int(0x10000)) + out.slice(at + 1);
		else if (op === 1) out = out.slice(0, at) + pick(TOKENS) + out.slice(at);
		else if (op === 2) out = out.slice(0, at) + out.slice(at + 1 + int(20));
		else if (op === 3) out = out.slice(0, at);
		else if (op === 4) out = out.slice(0, at) + out.slice(at, at + int(60)) + out.slice(at);
		else if (op === 5)
			out = out.replace(/\d+(\.\d+)?/, pick(['1e400', '-0', '9'.repeat(400), '1.5', '-1']));
		else out = out + pick([text, '\n', JSON.stringify(errorBody())]);
	}
	return out;
}

function sseText(events: Json[]): string {
	const eol = pick(['\n', '\r\n', '\r']);
	const lines = events.map((event) => {
		const data =
			pick(['data: ', 'data:']) +
			JSON.stringify(event, null, random() < 0.1 ? 1 : undefined)
				.split('\n')
				.join(`${eol}data: `);
		return `${random() < 0.1 ? `: keep-alive${eol}` : ''}${random() < 0.05 ? `event: error${eol}` : ''}${data}${eol}${eol}`;
	});
	return lines.join('') + (random() < 0.8 ? `data: [DONE]${eol}${eol}` : '');
}

function deepNesting(): string {
	const depth = pick([10, 100, 1000, 10_000]);
	const [open, close] = pick([
		['[', ']'],
		['{"error":', '}'],
		['{"choices":[', ']}'],
		['{"a":[', ']}'],
	]);
	const text = `${open.repeat(depth)}${pick(['1', 'null', '"x"', '{}'])}${close.repeat(depth)}`;
	return pick(['', 'data: ']) + (random() < 0.3 ? text.slice(0, int(text.length)) : text);
}

function hostile(): string {
	const prefix = pick(['', '<html>', '<html><title', '{', '[', 'data: ', '{"error":"']);
	const unit = pick(['<', '<title', '<h1', '{"', '"\\', '[', '\\', 'data: ', '\r', ' ', '<!--']);
	return prefix + unit.repeat(Math.ceil(LARGE / unit.length));
}

/** A valid body of each kind, given as text with its fields or its bytes mutated. */
const json = (make: () => Json) => (fields: boolean) =>
	JSON.stringify(fields ? mutateValue(make()) : make());
const BODIES: Array<[string, (fields: boolean) => string]> = [
	['completion', json(completion)],
	['error body', json(errorBody)],
	['model list', json(modelList)],
	[
		'SSE stream',
		(fields) =>
			sseText(chunks().map((event) => (fields && random() < 0.3 ? mutateValue(event) : event))),
	],
];

function mutatedBody(): [string, string] {
	const [name, make] = pick(BODIES);
	const fields = random() < 0.5;
	const text = make(fields);
	return [
		`${name}, ${fields ? 'fields' : 'bytes'} mutated`,
		!fields || random() < 0.3 ? mutateText(text) : text,
	];
}

interface Input {
	kind: string;
	text: string;
	status: number;
	headers: Record<string, string>;
	cuts: number[];
}

function nextInput(): Input {
	const roll = int(1000);
	let kind: string;
	let text: string;
	if (roll === 0) [kind, text] = ['large hostile body', hostile()];
	else if (roll < 10) [kind, text] = ['deep nesting', deepNesting()];
	else if (roll < 120) [kind, text] = ['random JSON', JSON.stringify(randomJson(4))];
	else if (roll < 170)
		[kind, text] = ['random text', Array.from({ length: int(40) }, () => pick(TOKENS)).join('')];
	else [kind, text] = mutatedBody();
	const status = random() < 0.6 ? 200 : pick(STATUSES);
	const headers: Record<string, string> =
		random() < 0.3 ? { 'retry-after': pick(RETRY_AFTER) } : {};
	const cutCount = text.length < 200 && random() < 0.2 ? text.length : int(9);
	const cuts = Array.from({ length: cutCount }, () => int(text.length + 1)).sort((a, b) => a - b);
	return { kind, text, status, headers, cuts };
}

/** Before the random inputs: each template with `null` in one field, for every field. */
function nullInEveryField(): Input[] {
	const templates: Array<[string, Json]> = [
		['completion', completion()],
		['model list', modelList()],
		...ERROR_BODIES.map((body): [string, Json] => ['error body', body]),
		...chunks().map((event): [string, Json] => ['SSE chunk', event]),
	];
	return templates.flatMap(([kind, template]) =>
		slots(template).map((_, index) => {
			const value = copy(template);
			const [container, key] = slots(value)[index];
			(container as Record<string | number, Json>)[key] = null;
			const text =
				kind === 'SSE chunk'
					? `data: ${JSON.stringify(value)}\n\ndata: [DONE]\n\n`
					: JSON.stringify(value);
			return { kind: `${kind}, null at field ${index}`, text, status: 200, headers: {}, cuts: [] };
		}),
	);
}

const REQUEST = { model: 'echo-1', messages: [{ role: 'user' as const, content: 'Hi' }] };
const reply = ({ status, headers, text }: Input): HttpReply => ({ status, headers, text });

function assemble({ text, cuts, status }: Input): Completion {
	const assembler = createStreamAssembler({ status, onText: () => undefined });
	let start = 0;
	for (const end of [...cuts, text.length]) {
		assembler.feed(text.slice(start, end));
		start = end;
	}
	return assembler.finish();
}

/** What the node runs on a body: each parser, and the output mapping of any completion a parser accepts. */
const targets: Array<[string, (input: Input) => unknown]> = [
	['readBody', ({ text }) => readBody(text)],
	['serviceErrorFrom', (input) => serviceErrorFrom(reply(input))],
	['parseModels', (input) => parseModels(reply(input))],
	['parseCompletion', (input) => parseCompletion(reply(input))],
	['createStreamAssembler', assemble],
];
const MAPPED = new Set(['parseCompletion', 'createStreamAssembler']);

interface Failure {
	target: string;
	error: string;
	index: number;
	input: Input;
}

const HANG = 'slower than the budget';

function describeFailure({ target, error, index, input }: Failure): string {
	const shown =
		JSON.stringify(input.text.slice(0, 300)) +
		(input.text.length > 300 ? `… (${input.text.length} characters)` : '');
	return `${target}: ${error}\n  seed ${SEED}, input #${index} (${input.kind}), status ${input.status}, headers ${JSON.stringify(input.headers)}, cuts ${JSON.stringify(input.cuts)}\n  text ${shown}`;
}

test('the parsers throw nothing but ServiceError and ReplyError, and never hang, on 100,000+ inputs', () => {
	const failures = new Map<string, Failure>();
	/** The input of the first hang: once one parser hung, the other large bodies are skipped. */
	let hungAt = -1;
	/** Keeps the first input of each kind of failure (by target, error and where it was thrown). */
	const record = (target: string, kind: string, error: string, index: number, input: Input) => {
		if (!failures.has(`${target}: ${kind}`))
			failures.set(`${target}: ${kind}`, { target, error, index, input });
	};
	const call = (target: string, run: () => unknown, index: number, input: Input): unknown => {
		const started = performance.now();
		try {
			return run();
		} catch (error) {
			if (!(error instanceof ServiceError || error instanceof ReplyError)) {
				const summary = String((error as Error)?.stack ?? error)
					.split('\n    at ')
					.slice(0, 3)
					.join(' at ');
				record(target, summary, summary, index, input);
			}
			return undefined;
		} finally {
			let took = performance.now() - started;
			// A stall of the machine slows one call; a parser that hangs is slow every time it runs.
			if (took > BUDGET_MS) took = Math.min(took, leastTimeMs(run, BUDGET_MS, 2));
			if (took > BUDGET_MS) {
				hungAt = index;
				record(
					target,
					HANG,
					`${HANG}: took ${Math.round(took)} ms (budget ${BUDGET_MS} ms)`,
					index,
					input,
				);
			}
		}
	};

	const systematic = nullInEveryField();
	const started = performance.now();
	let calls = 0;
	for (let index = 0; index < systematic.length + INPUTS; index++) {
		const input = index < systematic.length ? systematic[index] : nextInput();
		// After one hang, the other large bodies are generated (the sequence stays the same) but not run.
		if (input.kind === 'large hostile body' && hungAt >= 0) continue;
		for (const [target, run] of targets) {
			// The parsers share the body reader: one hang on an input is enough.
			if (hungAt === index) break;
			calls++;
			const result = call(target, () => run(input), index, input);
			if (result !== undefined && MAPPED.has(target)) {
				calls++;
				call(
					`replyItem (of what ${target} accepted)`,
					() => replyItem(REQUEST, result as Completion),
					index,
					input,
				);
			}
		}
	}
	const seconds = (performance.now() - started) / 1000;
	console.log(
		`fuzz: seed ${SEED}, ${(systematic.length + INPUTS).toLocaleString('en')} inputs (${systematic.length} with null in one field), ` +
			`${calls.toLocaleString('en')} parser calls in ${seconds.toFixed(1)} s; ${failures.size} distinct failures`,
	);
	if (failures.size > 0) throw new Error([...failures.values()].map(describeFailure).join('\n\n'));
}, 120_000);
