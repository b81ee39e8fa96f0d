import { BalanceUnavailableError, ServiceError } from '../failures/errors';
import { readBody } from '../reply/body';
import { serviceErrorFrom } from '../reply/error-body';
import type { HttpReply } from '../transport/outgoing';
import { isPlainObject } from '../values';

/**
 * What a key has left, as the service states it: amounts in `currency` (USD where the gateway bills in
 * dollars) or in the gateway's own `unit` (new-api's quota points); `null` where the service sets no limit.
 * `source` names the endpoint that answered.
 */
export interface Balance {
	remaining: number | null;
	used: number | null;
	limit: number | null;
	currency?: string;
	unit?: string;
	source: string;
}

/** An endpoint to ask: under the Base URL, or under the site root (the Base URL without its version segment). */
export interface BalancePath {
	path: string;
	root?: true;
}

type Json = Record<string, unknown>;

interface BalanceSource {
	/** Which gateways answer it, for the error when none does. */
	gateways: string;
	paths: BalancePath[];
	/** The balance in the answers (one per path, in order); undefined when they are not this shape. */
	read(answers: Json[]): Omit<Balance, 'source'> | undefined;
}

const amount = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The limit new-api's billing gives a key without one (100,000,000 USD: a limit no one reaches). */
const NEW_API_NO_LIMIT_USD = 100_000_000;

/** A difference of amounts in dollars, without binary fractions' tails (0.3 - 0.1 is 0.2, not 0.19999999999999998). */
const minus = (a: number, b: number) => Math.round((a - b) * 1e9) / 1e9;

/**
 * The endpoints that tell a key's balance with the key itself, in the order they are preferred: OpenRouter's
 * `GET /key`, new-api's and one-api's OpenAI-style billing (its usage in cents), LiteLLM's `GET /key/info`, and
 * new-api's `GET /api/usage/token` (in its quota points).
 */
const SOURCES: BalanceSource[] = [
	{
		gateways: 'OpenRouter',
		paths: [{ path: 'key' }],
		read: ([answer]) => {
			const data = answer.data;
			if (!isPlainObject(data) || amount(data.usage) === undefined) return undefined;
			const used = amount(data.usage)!;
			const limit = amount(data.limit) ?? null;
			const remaining =
				amount(data.limit_remaining) ?? (limit === null ? null : minus(limit, used));
			return { remaining, used, limit, currency: 'USD' };
		},
	},
	{
		gateways: 'new-api, one-api',
		paths: [{ path: 'dashboard/billing/subscription' }, { path: 'dashboard/billing/usage' }],
		read: ([subscription, usage]) => {
			const limit = amount(subscription.hard_limit_usd);
			const cents = amount(usage.total_usage);
			if (limit === undefined || cents === undefined) return undefined;
			const used = cents / 100;
			if (limit >= NEW_API_NO_LIMIT_USD)
				return { remaining: null, used, limit: null, currency: 'USD' };
			return { remaining: minus(limit, used), used, limit, currency: 'USD' };
		},
	},
	{
		gateways: 'LiteLLM',
		paths: [{ path: 'key/info', root: true }],
		read: ([answer]) => {
			const info = answer.info;
			if (!isPlainObject(info) || amount(info.spend) === undefined) return undefined;
			const used = amount(info.spend)!;
			const limit = amount(info.max_budget) ?? null;
			return {
				remaining: limit === null ? null : minus(limit, used),
				used,
				limit,
				currency: 'USD',
			};
		},
	},
	{
		gateways: 'new-api',
		paths: [{ path: 'api/usage/token', root: true }],
		read: ([answer]) => {
			const data = answer.data;
			if (!isPlainObject(data) || amount(data.total_used) === undefined) return undefined;
			const unlimited = data.unlimited_quota === true;
			return {
				remaining: unlimited ? null : (amount(data.total_available) ?? null),
				used: amount(data.total_used)!,
				limit: unlimited ? null : (amount(data.total_granted) ?? null),
				unit: 'quota',
			};
		},
	},
];

/** How an endpoint is named in `source` and in errors: `GET /key`, `GET /api/usage/token`. */
const named = (paths: BalancePath[]) => paths.map(({ path }) => `GET /${path}`).join(' + ');

/** Why a source's endpoint gave no balance (a status, a shape, the network's words) and the error, if one. */
interface NoBalance {
	why: string;
	error?: unknown;
}

/** What one source's answers were: its balance, or why not. */
type Outcome = { balance: Balance } | NoBalance;

/**
 * A balance endpoint's answer: its JSON object (undefined when the body is not one); an error status throws
 * the ServiceError it says, so that the request's retries and rate-limit waits apply as to any request.
 */
export function balanceAnswer(reply: HttpReply): Json | undefined {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body);
	return isPlainObject(body.json) ? body.json : undefined;
}

/** Asks one endpoint, `get` sending the request and reading it with `balanceAnswer`. */
export type BalanceGet = (path: BalancePath) => Promise<Json | undefined>;

/** What one endpoint answered: its JSON object, or why not. */
async function answerOf(path: BalancePath, get: BalanceGet): Promise<{ answer: Json } | NoBalance> {
	try {
		const answer = await get(path);
		return answer === undefined ? { why: 'not a JSON object' } : { answer };
	} catch (error) {
		if (error instanceof ServiceError) return { why: `HTTP ${error.status}`, error };
		return { why: error instanceof Error ? error.message : String(error), error };
	}
}

/** Asks a source's endpoints at once; its balance, or why not (the first endpoint's that did not answer). */
async function ask(source: BalanceSource, get: BalanceGet): Promise<Outcome> {
	const answers = await Promise.all(source.paths.map(async (path) => await answerOf(path, get)));
	const failed = answers.find((answer) => !('answer' in answer));
	if (failed !== undefined && !('answer' in failed)) return failed;
	const balance = source.read(answers.map((answer) => (answer as { answer: Json }).answer));
	return balance === undefined
		? { why: 'no balance in the answer' }
		: { balance: { ...balance, source: named(source.paths) } };
}

/**
 * The key's balance from the first source (in the order of SOURCES) that tells it, every endpoint asked at
 * once (one round trip). When none does: a refused key is that failure; no endpoint answering at all (a
 * timeout, nothing listening) is the first endpoint's failure, in the network's words; anything else is a
 * BalanceUnavailableError that says what each endpoint answered.
 */
export async function readBalance(get: BalanceGet): Promise<Balance> {
	const outcomes = await Promise.all(SOURCES.map(async (source) => await ask(source, get)));
	for (const outcome of outcomes) if ('balance' in outcome) return outcome.balance;
	const errors = outcomes.map((outcome) => ('error' in outcome ? outcome.error : undefined));
	const refused = errors.find((error) => error instanceof ServiceError && error.status === 401);
	if (refused !== undefined) throw refused;
	const unanswered = (error: unknown) => error !== undefined && !(error instanceof ServiceError);
	if (errors.every(unanswered)) throw errors[0];
	throw new BalanceUnavailableError(
		SOURCES.map((source, index) => {
			const outcome = outcomes[index] as NoBalance;
			return `${named(source.paths)} (${source.gateways}): ${outcome.why}`;
		}),
		errors.some((error) => error instanceof ServiceError && error.status === 404),
	);
}

/**
 * The balance in words, for the credential test: `$4.20 left`, `2,100,000 quota left`, `no limit ($1.25 used)`,
 * `overdrawn by $2.50`.
 */
export function balanceWords(balance: Balance): string {
	const shown = (value: number) =>
		balance.currency === 'USD'
			? `$${value.toFixed(2)}`
			: `${value.toLocaleString('en-US')} ${balance.unit ?? balance.currency ?? ''}`.trim();
	if (balance.remaining !== null && balance.remaining < 0)
		return `overdrawn by ${shown(-balance.remaining)}`;
	if (balance.remaining !== null) return `${shown(balance.remaining)} left`;
	return balance.used === null ? 'no limit' : `no limit (${shown(balance.used)} used)`;
}
