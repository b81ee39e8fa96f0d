/**
 * The endpoints gateways tell a key's balance at, each answering only when the request's `x-local-balance`
 * header names its style (a test knob: the credential's Extra Headers carry it), else 404 as a service without
 * it: `openrouter` (`GET /v1/key`), `new-api` (`GET /v1/dashboard/billing/subscription` and `/usage`, OpenAI's
 * old billing shape, usage in cents), `litellm` (`GET /key/info` at the site root) and `new-api-token` (`GET
 * /api/usage/token` at the site root, in quota points, 500,000 to the dollar). Every key has spent $5.80 of a $10
 * limit; `unlimited` after the style (`litellm unlimited`) gives it no limit, `overdrawn` has it spend $12.50.
 */
import type { IncomingMessage } from 'node:http';
import type { KeyRecord } from './config.mts';

const LIMIT_USD = 10;
const USED_USD = 5.8;
const OVERDRAWN_USD = 12.5;
const QUOTA_PER_USD = 500_000;

const STYLE_OF_ROUTE: Record<string, string> = {
	'GET /v1/key': 'openrouter',
	'GET /v1/dashboard/billing/subscription': 'new-api',
	'GET /v1/dashboard/billing/usage': 'new-api',
	'GET /key/info': 'litellm',
	'GET /api/usage/token': 'new-api-token',
};

/** The balance endpoints at the site root, outside /v1. */
export const ROOT_BALANCE_PATHS = ['/key/info', '/api/usage/token'];

/** The answer of a balance route for `key`; undefined when the route is none or the header names another style. */
export function balanceReply(
	req: IncomingMessage,
	route: string,
	key: KeyRecord,
): object | undefined {
	const style = STYLE_OF_ROUTE[route];
	const [asked, limits] = String(req.headers['x-local-balance'] ?? '').split(' ');
	if (style === undefined || asked !== style) return undefined;
	const limit = limits === 'unlimited' ? null : LIMIT_USD;
	const used = limits === 'overdrawn' ? OVERDRAWN_USD : USED_USD;
	const left = limit === null ? null : Math.round((limit - used) * 100) / 100;
	switch (route) {
		case 'GET /v1/key':
			return {
				data: {
					label: key.name,
					limit,
					usage: used,
					limit_remaining: left,
					is_free_tier: false,
				},
			};
		case 'GET /v1/dashboard/billing/subscription':
			// new-api answers a key without limit with a limit no one reaches.
			return {
				object: 'billing_subscription',
				has_payment_method: true,
				soft_limit_usd: limit ?? 100_000_000,
				hard_limit_usd: limit ?? 100_000_000,
				system_hard_limit_usd: limit ?? 100_000_000,
				access_until: 0,
			};
		case 'GET /v1/dashboard/billing/usage':
			return { object: 'list', total_usage: used * 100 };
		case 'GET /key/info':
			return { key: key.name, info: { spend: used, max_budget: limit, models: [] } };
		default:
			return {
				code: true,
				message: 'ok',
				data: {
					object: 'token_usage',
					name: key.name,
					total_granted: limit === null ? 0 : limit * QUOTA_PER_USD,
					total_used: used * QUOTA_PER_USD,
					total_available: left === null ? 0 : left * QUOTA_PER_USD,
					unlimited_quota: limit === null,
					expires_at: 0,
				},
			};
	}
}
