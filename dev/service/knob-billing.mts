/**
 * What gateways say about a request besides the reply: its id (in a header, or as the completion's id as
 * OpenRouter does) and its cost (`usage.cost` as OpenRouter does, or LiteLLM's `x-litellm-response-cost`).
 * Knobs `request_id`, `completion_id`, `usage_cost`, `cost_header`.
 */
import type { ServerResponse } from 'node:http';
import type { Knobs } from './knobs.mts';

/** The headers gateways name a request by: new-api/one-api, many proxies, LiteLLM. */
export const requestIdHeaders = [
	'x-oneapi-request-id',
	'x-request-id',
	'x-litellm-call-id',
] as const;
export type RequestIdHeader = (typeof requestIdHeaders)[number];

/** Sets the knobs' id and cost headers, before any answer (failures carry the request id too). */
export function setBillingHeaders(res: ServerResponse, knobs: Knobs): void {
	if (knobs.requestId !== undefined) res.setHeader(knobs.requestId.header, knobs.requestId.value);
	if (knobs.costHeader !== undefined)
		res.setHeader('x-litellm-response-cost', String(knobs.costHeader));
}

/** The usage with the knob's `cost`, as OpenRouter reports it. */
export function withUsageCost<T extends object>(usage: T, knobs: Knobs): T {
	return knobs.usageCost === undefined ? usage : { ...usage, cost: knobs.usageCost };
}
