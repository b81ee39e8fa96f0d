/**
 * Loads the service's keys and token groups from a JSON file (default: config.json beside main.mts):
 * `{ "groups": { "<group>": ["<model id>", ...] },
 *    "keys": [{ "name", "key", "group", "expiresAt"?, "rateLimit"?: { "requests", "windowSeconds", "inFlight"?, "wholeSeconds"?, "style"? },
 *               "outOfBalance"?, "videoApi"? }] }`.
 */
import { readFileSync } from 'node:fs';
import { isObject } from './json-value.mts';

/**
 * How a gateway counts and tells its limit (rate-limit-styles.mts): `local` (this service's own: a sliding
 * window, Retry-After and x-ratelimit headers), `retry-after-ms`, `openai`, `litellm`, `openrouter`, `new-api`.
 */
export const LIMIT_STYLES = [
	'local',
	'retry-after-ms',
	'openai',
	'litellm',
	'openrouter',
	'new-api',
] as const;
export type LimitStyle = (typeof LIMIT_STYLES)[number];

/** The shapes a gateway serves video in (video/shape.mts): OpenAI's, OpenRouter's, new-api's own task API. */
export const VIDEO_APIS = ['openai', 'openrouter', 'new-api'] as const;
export type VideoApi = (typeof VIDEO_APIS)[number];

/** A gateway's per-key limit (rate-limit.mts enforces it): requests started per window, and in flight at once. */
export interface RateLimit {
	requests: number;
	windowSeconds: number;
	/** At most this many requests of the key are answered at the same time. */
	inFlight?: number;
	/** Retry-After in whole seconds, rounded up (as LiteLLM and one-api send it), not fractional. */
	wholeSeconds?: boolean;
	/** How the limit is counted and told; `local` when absent. */
	style?: LimitStyle;
}

export interface KeyRecord {
	/** A short handle for tests and logs (e.g. `default`). */
	name: string;
	key: string;
	group: string;
	/** From this instant on the key answers 401. */
	expiresAt?: Date;
	rateLimit?: RateLimit;
	/** Every chat completion answers 403 insufficient_user_quota. */
	outOfBalance: boolean;
	/** The shape its video routes answer in (the `x-local-video` header may name another). */
	videoApi?: VideoApi;
}

export interface ServiceConfig {
	/** Model ids per token group, in listing order. */
	groups: ReadonlyMap<string, readonly string[]>;
	keys: ReadonlyMap<string, KeyRecord>;
}

function isPositiveInteger(value: unknown): value is number {
	return Number.isInteger(value) && (value as number) > 0;
}

export function loadConfig(file: string, knownModels: ReadonlySet<string>): ServiceConfig {
	let json: unknown;
	try {
		json = JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		throw new Error(`Cannot read config ${file}: ${(error as Error).message}`);
	}
	try {
		return parseConfig(json, knownModels);
	} catch (error) {
		throw new Error(`Invalid config ${file}: ${(error as Error).message}`);
	}
}

function parseConfig(json: unknown, knownModels: ReadonlySet<string>): ServiceConfig {
	if (!isObject(json) || !isObject(json.groups) || !Array.isArray(json.keys)) {
		throw new Error("expected an object with 'groups' (object) and 'keys' (array)");
	}
	const groups = new Map<string, string[]>();
	for (const [group, ids] of Object.entries(json.groups)) {
		if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
			throw new Error(`groups.${group} must be an array of model ids`);
		}
		// A route such as `local/*` (LiteLLM's wildcard routes) names no model of its own.
		const unknown = ids.filter((id) => !knownModels.has(id) && !id.endsWith('/*'));
		if (unknown.length > 0) {
			throw new Error(`groups.${group}: unknown model ids ${unknown.join(', ')}`);
		}
		groups.set(group, ids);
	}
	const keys = new Map<string, KeyRecord>();
	const names = new Set<string>();
	json.keys.forEach((entry: unknown, index: number) => {
		const record = parseKey(entry, `keys[${index}]`, groups);
		if (keys.has(record.key)) throw new Error(`keys[${index}]: duplicate key`);
		if (names.has(record.name)) throw new Error(`keys[${index}]: duplicate name '${record.name}'`);
		keys.set(record.key, record);
		names.add(record.name);
	});
	return { groups, keys };
}

function parseKey(entry: unknown, at: string, groups: ReadonlyMap<string, unknown>): KeyRecord {
	if (!isObject(entry)) throw new Error(`${at} must be an object`);
	const { name, key, group, expiresAt, rateLimit, outOfBalance, videoApi } = entry;
	if (typeof name !== 'string' || name === '') {
		throw new Error(`${at}.name must be a non-empty string`);
	}
	if (typeof key !== 'string' || !/^sk-\S+$/.test(key)) {
		throw new Error(`${at}.key must be 'sk-' followed by non-space characters`);
	}
	if (typeof group !== 'string' || !groups.has(group)) {
		throw new Error(`${at}.group must name a group`);
	}
	if (outOfBalance !== undefined && typeof outOfBalance !== 'boolean') {
		throw new Error(`${at}.outOfBalance must be a boolean`);
	}
	if (videoApi !== undefined && !VIDEO_APIS.includes(videoApi as VideoApi)) {
		throw new Error(`${at}.videoApi must be one of ${VIDEO_APIS.join(', ')}`);
	}
	const record: KeyRecord = { name, key, group, outOfBalance: outOfBalance === true };
	if (videoApi !== undefined) record.videoApi = videoApi as VideoApi;
	if (expiresAt !== undefined) {
		const date = new Date(typeof expiresAt === 'string' ? expiresAt : NaN);
		if (Number.isNaN(date.getTime())) throw new Error(`${at}.expiresAt must be an ISO date string`);
		record.expiresAt = date;
	}
	if (rateLimit !== undefined) record.rateLimit = checkRateLimit(rateLimit, `${at}.rateLimit`);
	return record;
}

/** A `rateLimit` value of the config file (or of --rate-limit), checked and copied. */
export function checkRateLimit(value: unknown, at: string): RateLimit {
	if (
		!isObject(value) ||
		!isPositiveInteger(value.requests) ||
		!isPositiveInteger(value.windowSeconds) ||
		(value.inFlight !== undefined && !isPositiveInteger(value.inFlight)) ||
		(value.wholeSeconds !== undefined && typeof value.wholeSeconds !== 'boolean') ||
		(value.style !== undefined && !LIMIT_STYLES.includes(value.style as LimitStyle))
	) {
		throw new Error(
			`${at} must be { "requests": positive integer, "windowSeconds": positive integer, "inFlight"?: positive integer, "wholeSeconds"?: boolean, "style"?: ${LIMIT_STYLES.map((style) => `"${style}"`).join(' | ')} }`,
		);
	}
	const { requests, windowSeconds, inFlight, wholeSeconds, style } = value as unknown as RateLimit;
	return {
		requests,
		windowSeconds,
		...(inFlight === undefined ? {} : { inFlight }),
		...(wholeSeconds === undefined ? {} : { wholeSeconds }),
		...(style === undefined ? {} : { style }),
	};
}

/** `config` with the rate limits of some keys, named by their `name`, replaced. */
export function withRateLimits(
	config: ServiceConfig,
	limits: ReadonlyMap<string, RateLimit>,
): ServiceConfig {
	const names = new Set([...config.keys.values()].map((key) => key.name));
	const unknown = [...limits.keys()].filter((name) => !names.has(name));
	if (unknown.length > 0) throw new Error(`No key named ${unknown.join(', ')} in the config`);
	const keys = new Map(
		[...config.keys].map(([key, record]) => {
			const rateLimit = limits.get(record.name);
			return [key, rateLimit === undefined ? record : { ...record, rateLimit }];
		}),
	);
	return { ...config, keys };
}
