/**
 * Test knobs: the optional `x_local` object of a chat completion body. It is taken out of the body before
 * validation and shapes the answer (stream format and faults), so tests can set it through a client's
 * "extra body" option. dev/service/README.md lists the knobs.
 */
import { invalidRequest, type ApiError } from './errors.mts';
import { describe, isObject, type Json } from './json-value.mts';
import { requestIdHeaders, type RequestIdHeader } from './knob-billing.mts';

const failStatuses = [429, 500, 502, 503, 504] as const;
export type FailStatus = (typeof failStatuses)[number];

/** The first `count` requests carrying `id` fail with `status`. */
export interface FailFirst {
	id: string;
	count: number;
	status: FailStatus;
	/** Sent verbatim as the Retry-After header. */
	retryAfter?: string;
	/** The error body's `code` instead of the status's usual one. */
	code?: string;
	/**
	 * A request with `id` that comes back before the last failure's Retry-After (in seconds) has passed fails
	 * again with the time left, and does not count: a client that ignores the wait meets more failures.
	 */
	strictRetryAfter: boolean;
}

const invalidJsonModes = ['syntax', 'schema'] as const;
export type InvalidJsonMode = (typeof invalidJsonModes)[number];

/** The first `count` JSON answers to requests carrying `id` are invalid: unparsable, or against the schema. */
export interface InvalidJson {
	id: string;
	count: number;
	mode: InvalidJsonMode;
}

/** DeepSeek's refusal of `json_schema`, and (`json`) of `json_object` too. */
const rejectedFormats = ['json_schema', 'json'] as const;
export type RejectedFormats = (typeof rejectedFormats)[number];

/** The model refuses: `message.refusal` (streamed: `delta.refusal`) is `text`, `content` null or ''. */
export interface Refusal {
	text: string;
	emptyContent: boolean;
}

/**
 * `think-1` and `think-inline-1` answer what a structured request asks for (a forced function's call, or the
 * JSON of the schema the messages give) instead of echoing; booleans are true only when the last user text
 * contains one of `trueWords` (whole words, any case).
 */
export interface FollowSchema {
	trueWords: string[];
}

const lineEnds = ['lf', 'crlf', 'cr'] as const;
type LineEnd = (typeof lineEnds)[number];

const reasoningFields = ['reasoning_content', 'reasoning'] as const;
export type ReasoningField = (typeof reasoningFields)[number];

export interface Knobs {
	chunkWords: number;
	delayMs: number;
	comments: boolean;
	lineEnd: LineEnd;
	noSpace: boolean;
	multiline: boolean;
	roleEveryDelta: boolean;
	splitBytes?: number;
	errorAfter?: number;
	doneAfterError: boolean;
	eventError: boolean;
	cutAfter?: number;
	noFinishDone: boolean;
	/** A JSON answer's finish_reason is null (streams: see noFinishDone and cutAfter). */
	nullFinish: boolean;
	ignoreStream: boolean;
	reasoningField: ReasoningField;
	followSchema?: FollowSchema;
	/** The reply's content instead of the model's own (`text` repeated `repeat` times). */
	text?: string;
	refusal?: Refusal;
	failFirst?: FailFirst;
	invalidJson?: InvalidJson;
	rejectResponseFormat?: RejectedFormats;
	reset: boolean;
	stallHeadersMs: number;
	stallBodyMs: number;
	slowMs: number;
	hugeMb?: number;
	/** Usage with its details: `prompt_tokens_details.cached_tokens` this many, the reasoning's tokens. */
	cachedTokens?: number;
	/** A 400 naming `cache_control` to a request that carries one, as services without prompt caching answer. */
	rejectCacheControl: boolean;
	/** A header that names the request (`request_id`), on every answer, failures too. */
	requestId?: { header: RequestIdHeader; value: string };
	/** The completion's `id` instead of a made-up `chatcmpl-...` (OpenRouter's `gen-...`). */
	completionId?: string;
	/** `usage.cost` (OpenRouter). */
	usageCost?: number;
	/** The `x-litellm-response-cost` header (LiteLLM). */
	costHeader?: number;
	/** How many images an image model answers in chat (`message.images`); 0: none. */
	images?: number;
}

const maxMs = 600_000;
const maxCount = 1_000_000;
/** `text` x `repeat` and `huge_mb` stay within what a test needs and a process holds easily. */
const maxTextChars = 64 * 1024 * 1024;
const maxHugeMb = 64;
const maxImages = 10;

/** Reads the fields of one knob object, remembering which names it read. */
export class FieldReader {
	readonly #fields: Json;
	readonly #path: string;
	readonly #read = new Set<string>();

	constructor(fields: Json, path: string) {
		this.#fields = fields;
		this.#path = path;
	}

	/** Where the fields are, e.g. `x_local.fail_first`. */
	get path(): string {
		return this.#path;
	}

	#take(name: string): unknown {
		this.#read.add(name);
		return this.#fields[name];
	}

	#reject(name: string, expected: string, value: unknown): never {
		const at = `${this.#path}.${name}`;
		throw invalidRequest(
			`'${at}' must be ${expected}, got ${describe(value)}`,
			at,
			'invalid_value',
		);
	}

	boolean(name: string): boolean {
		const value = this.#take(name);
		if (value === undefined) return false;
		if (typeof value !== 'boolean') this.#reject(name, 'a boolean', value);
		return value;
	}

	number(name: string, min: number, max: number, integer = true): number | undefined {
		const value = this.#take(name);
		if (value === undefined) return undefined;
		const valid =
			typeof value === 'number' &&
			(integer ? Number.isInteger(value) : Number.isFinite(value)) &&
			value >= min &&
			value <= max;
		if (!valid) {
			this.#reject(name, `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, value);
		}
		return value;
	}

	string(name: string): string | undefined {
		const value = this.#take(name);
		if (value === undefined) return undefined;
		if (typeof value !== 'string') this.#reject(name, 'a string', value);
		return value;
	}

	/** An array of non-empty strings. */
	strings(name: string): string[] | undefined {
		const value = this.#take(name);
		if (value === undefined) return undefined;
		if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) {
			this.#reject(name, 'an array of non-empty strings', value);
		}
		return value as string[];
	}

	oneOf<T extends string | number>(name: string, values: readonly T[]): T | undefined {
		const value = this.#take(name);
		if (value === undefined) return undefined;
		const known = values.find((candidate) => candidate === value);
		if (known === undefined) {
			this.#reject(name, `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, value);
		}
		return known;
	}

	object(name: string): FieldReader | undefined {
		const value = this.#take(name);
		if (value === undefined) return undefined;
		if (!isObject(value)) this.#reject(name, 'an object', value);
		return new FieldReader(value, `${this.#path}.${name}`);
	}

	/** Throws a 400 naming every field that no read asked for. */
	rejectUnread(): void {
		const unread = Object.keys(this.#fields).filter((name) => !this.#read.has(name));
		if (unread.length === 0) return;
		throw invalidRequest(
			`'${this.#path}' has unknown field${unread.length > 1 ? 's' : ''} ${unread.join(', ')}; ` +
				`known: ${[...this.#read].join(', ')}`,
			this.#path,
			'unknown_parameter',
		);
	}
}

/** A counting knob's `id` (a non-empty string), `count` and `key` (one of `values`); 400 when one is missing. */
function readCounted<T extends string | number>(
	reader: FieldReader,
	key: string,
	values: readonly T[],
): { id: string; count: number; value: T } {
	const id = reader.string('id');
	const count = reader.number('count', 1, maxCount);
	const value = reader.oneOf(key, values);
	if (id === undefined || id === '' || count === undefined || value === undefined) {
		throw invalidRequest(
			`'${reader.path}' needs 'id' (a non-empty string), 'count' and '${key}'`,
			reader.path,
			'missing_required_parameter',
		);
	}
	return { id, count, value };
}

export function readFailFirst(reader: FieldReader | undefined): FailFirst | undefined {
	if (reader === undefined) return undefined;
	const { id, count, value: status } = readCounted(reader, 'status', failStatuses);
	const retryAfter = reader.string('retry_after');
	const code = reader.string('code');
	const strictRetryAfter = reader.boolean('strict_retry_after');
	reader.rejectUnread();
	if (strictRetryAfter && !(Number(retryAfter) > 0)) {
		throw invalidRequest(
			`'${reader.path}.strict_retry_after' needs 'retry_after' in seconds above 0`,
			reader.path,
			'invalid_value',
		);
	}
	return {
		id,
		count,
		status,
		strictRetryAfter,
		...(retryAfter === undefined ? {} : { retryAfter }),
		...(code === undefined ? {} : { code }),
	};
}

function readInvalidJson(reader: FieldReader | undefined): InvalidJson | undefined {
	if (reader === undefined) return undefined;
	const { id, count, value: mode } = readCounted(reader, 'mode', invalidJsonModes);
	reader.rejectUnread();
	return { id, count, mode };
}

function readFollowSchema(reader: FieldReader | undefined): FollowSchema | undefined {
	if (reader === undefined) return undefined;
	const trueWords = reader.strings('true_words') ?? [];
	reader.rejectUnread();
	return { trueWords };
}

function readRequestId(reader: FieldReader | undefined): Knobs['requestId'] {
	if (reader === undefined) return undefined;
	const header = reader.oneOf('header', requestIdHeaders);
	const value = reader.string('value');
	reader.rejectUnread();
	if (header === undefined || value === undefined || value === '') {
		throw invalidRequest(
			`'${reader.path}' needs 'header' and 'value' (a non-empty string)`,
			reader.path,
			'missing_required_parameter',
		);
	}
	return { header, value };
}

/** The 400 for a knob that only means something with `other`. */
function needs(knob: string, other: string): ApiError {
	return invalidRequest(
		`'x_local.${knob}' needs 'x_local.${other}'`,
		`x_local.${knob}`,
		'invalid_value',
	);
}

function readRefusal(reader: FieldReader): Refusal | undefined {
	const text = reader.string('refusal');
	const emptyContent = reader.boolean('refusal_empty_content');
	if (text !== undefined) return { text, emptyContent };
	if (emptyContent) throw needs('refusal_empty_content', 'refusal');
	return undefined;
}

function readText(reader: FieldReader): string | undefined {
	const text = reader.string('text');
	const repeat = reader.number('repeat', 1, maxCount);
	if (text === undefined) {
		if (repeat === undefined) return undefined;
		throw needs('repeat', 'text');
	}
	if (text.length * (repeat ?? 1) > maxTextChars) {
		throw invalidRequest(
			`'x_local.text' repeated ${repeat} times exceeds ${maxTextChars} characters`,
			'x_local.repeat',
			'invalid_value',
		);
	}
	return text.repeat(repeat ?? 1);
}

/** A reader of the `x_local` object of a request (undefined: an empty one); a 400 when it is not an object. */
export function knobReader(value: unknown): FieldReader {
	const fields = value ?? {};
	if (!isObject(fields)) {
		throw invalidRequest(
			`'x_local' must be an object, got ${describe(value)}`,
			'x_local',
			'invalid_type',
		);
	}
	return new FieldReader(fields, 'x_local');
}

/** The knobs of an `x_local` value (undefined: none set); throws a 400 naming the knob at fault. */
export function parseKnobs(value: unknown): Knobs {
	const reader = knobReader(value);
	const text = readText(reader);
	const knobs: Knobs = {
		chunkWords: reader.number('chunk_words', 1, maxCount) ?? 1,
		delayMs: reader.number('delay_ms', 0, maxMs) ?? 0,
		comments: reader.boolean('comments'),
		lineEnd: reader.oneOf('line_end', lineEnds) ?? 'lf',
		noSpace: reader.boolean('no_space'),
		multiline: reader.boolean('multiline'),
		roleEveryDelta: reader.boolean('role_every_delta'),
		splitBytes: reader.number('split_bytes', 1, maxCount),
		errorAfter: reader.number('error_after', 0, maxCount),
		doneAfterError: reader.boolean('done_after_error'),
		eventError: reader.boolean('event_error'),
		cutAfter: reader.number('cut_after', 0, maxCount),
		noFinishDone: reader.boolean('no_finish_done'),
		nullFinish: reader.boolean('null_finish'),
		ignoreStream: reader.boolean('ignore_stream'),
		reasoningField: reader.oneOf('reasoning_field', reasoningFields) ?? 'reasoning_content',
		followSchema: readFollowSchema(reader.object('follow_schema')),
		text,
		refusal: readRefusal(reader),
		failFirst: readFailFirst(reader.object('fail_first')),
		invalidJson: readInvalidJson(reader.object('invalid_json')),
		rejectResponseFormat: reader.oneOf('reject_response_format', rejectedFormats),
		reset: reader.boolean('reset'),
		stallHeadersMs: reader.number('stall_headers_ms', 0, maxMs) ?? 0,
		stallBodyMs: reader.number('stall_body_ms', 0, maxMs) ?? 0,
		slowMs: reader.number('slow_ms', 0, maxMs) ?? 0,
		hugeMb: reader.number('huge_mb', 0, maxHugeMb, false),
		cachedTokens: reader.number('cached_tokens', 0, maxCount),
		rejectCacheControl: reader.boolean('reject_cache_control'),
		requestId: readRequestId(reader.object('request_id')),
		completionId: reader.string('completion_id'),
		usageCost: reader.number('usage_cost', 0, maxCount, false),
		costHeader: reader.number('cost_header', 0, maxCount, false),
		images: reader.number('images', 0, maxImages),
	};
	reader.rejectUnread();
	return knobs;
}

/** Knobs that shape only an answer that is not streamed, with what a stream offers instead. */
const unstreamedKnobs: Array<[string, (knobs: Knobs) => boolean, string]> = [
	[
		'huge_mb',
		(knobs) => knobs.hugeMb !== undefined,
		"stream large replies with 'text' and 'repeat'",
	],
	[
		'null_finish',
		(knobs) => knobs.nullFinish,
		"streams without a finish_reason come with 'no_finish_done' ([DONE]) or 'cut_after' (no [DONE])",
	],
];

/** Throws a 400 for a knob of a streamed request that only shapes answers that are not streamed. */
export function checkStreamKnobs(knobs: Knobs): void {
	for (const [name, isSet, instead] of unstreamedKnobs) {
		if (isSet(knobs)) {
			throw invalidRequest(
				`'x_local.${name}' is for answers that are not streamed; ${instead}`,
				`x_local.${name}`,
				'invalid_value',
			);
		}
	}
}
