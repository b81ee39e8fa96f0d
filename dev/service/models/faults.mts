/**
 * Models that always fail the way real gateways do (the real-gateway answers listed in dev/service/README.md),
 * for testing how clients map errors. Each answers the same raw response to every request.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { nginxPage } from '../html-pages.mts';
import { releaseDate, type ModelDefinition } from './model.mts';

const json = { 'Content-Type': 'application/json' };

function fault(
	id: string,
	status: number,
	headers: Record<string, string>,
	body: string,
): ModelDefinition {
	return {
		id,
		created: releaseDate,
		ownedBy: 'local-faults',
		respond: () => ({ kind: 'raw', status, headers, body }),
	};
}

function jsonFault(id: string, status: number, body: unknown): ModelDefinition {
	return fault(id, status, json, JSON.stringify(body));
}

export const faultModels: ModelDefinition[] = [
	jsonFault('fault-500', 500, {
		error: { message: 'Internal server error', type: 'server_error', code: 'internal_error' },
	}),
	jsonFault('fault-503-model-not-found', 503, {
		error: {
			message: '当前分组 faults 下对于模型 fault-503-model-not-found 无可用渠道',
			type: 'new_api_error',
			code: 'model_not_found',
		},
	}),
	jsonFault('fault-503-one-api-no-channel', 503, {
		error: {
			message: '当前分组 faults 下对于模型 fault-503-one-api-no-channel 无可用渠道',
			type: 'one_api_error',
			code: null,
		},
	}),
	jsonFault('fault-503-new-api-no-channel', 503, {
		error: {
			message: 'No available channel for model fault-503-new-api-no-channel under group faults',
			type: 'new_api_error',
		},
	}),
	jsonFault('fault-403-new-api-no-access', 403, {
		error: {
			message: '该令牌无权访问模型 fault-403-new-api-no-access',
			type: 'new_api_error',
		},
	}),
	jsonFault('fault-402', 402, {
		error: {
			message: 'Insufficient Balance',
			type: 'unknown_error',
			param: null,
			code: 'invalid_request_error',
		},
	}),
	jsonFault('fault-429-quota', 429, {
		error: {
			message: 'You exceeded your current quota, please check your plan and billing details.',
			type: 'insufficient_quota',
			param: null,
			code: 'insufficient_quota',
		},
	}),
	// new-api and one-api out of quota, answered 429 as some of their versions do, with no quota code.
	jsonFault('fault-429-new-api-quota', 429, {
		error: {
			message:
				'token quota is not enough, token remain quota: ＄0.000100, need quota: ＄0.003000 (request id: 20261126101500123456789)',
			type: 'new_api_error',
			code: 'pre_consume_token_quota_failed',
		},
	}),
	jsonFault('fault-429-one-api-quota', 429, {
		error: { message: '用户额度不足，剩余额度为 ＄0.000000', type: 'one_api_error', code: null },
	}),
	jsonFault('fault-400-budget', 400, {
		error: {
			message: 'Budget has been exceeded! Current cost: 10.5, Max budget: 10.0',
			type: 'budget_exceeded',
			param: null,
			code: '400',
		},
	}),
	jsonFault('fault-200-error', 200, {
		error: {
			message: 'upstream error: the model is overloaded',
			type: 'upstream_error',
			code: 'upstream_error',
		},
	}),
	fault(
		'fault-html-502',
		502,
		{ 'Content-Type': 'text/html', Server: 'nginx' },
		nginxPage('502 Bad Gateway'),
	),
	fault(
		'fault-text-404',
		404,
		{ 'Content-Type': 'text/plain; charset=utf-8' },
		'404 page not found',
	),
	// Ollama's OpenAI-compatible API for a model that is not pulled: a 404 with no `code` at all.
	jsonFault('fault-404-not-pulled', 404, {
		error: {
			message: 'model "fault-404-not-pulled" not found, try pulling it first',
			type: 'not_found_error',
			param: null,
			code: null,
		},
	}),
	fault('fault-empty-429', 429, { 'Retry-After': '1.5' }, ''),
	jsonFault('fault-string-error', 401, { error: 'Unauthorized' }),
	fault(
		'fault-two-json',
		500,
		json,
		'{"error":{"message":"first failure","type":"server_error"}}{"error":{"message":"second failure","type":"server_error"}}',
	),
	jsonFault('fault-none-codes', 500, {
		error: { message: 'Upstream failed', type: 'None', code: 'None' },
	}),
	jsonFault('fault-numeric-code', 400, {
		error: { message: 'Invalid parameter', type: 'invalid_request_error', code: 400 },
	}),
	// A rate limit that asks for a longer wait than a client allows.
	fault(
		'fault-429-wait',
		429,
		{ ...json, 'Retry-After': '30' },
		JSON.stringify({
			error: {
				message:
					'Rate limit reached for fault-429-wait in organization org-local on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 30s.',
				type: 'requests',
				code: 'rate_limit_exceeded',
			},
		}),
	),
	// DeepSeek's reasoner on tools.
	jsonFault('fault-400-no-tools', 400, {
		error: {
			message: 'fault-400-no-tools does not support Function Calling',
			type: 'invalid_request_error',
			param: null,
			code: 'invalid_request_error',
		},
	}),
	// one-api ends its own messages with the request id.
	jsonFault('fault-500-request-id', 500, {
		error: {
			message: 'upstream error: do request failed (request id: 20261124093015123456789)',
			type: 'one_api_error',
			code: 'do_request_failed',
		},
	}),
	{
		// No answer for a minute: a client's Timeout ends the request first.
		id: 'fault-timeout',
		created: releaseDate,
		ownedBy: 'local-faults',
		respond: async () => {
			await delay(60_000);
			return { kind: 'raw', status: 504, headers: json, body: '{"error":"late"}' };
		},
	},
];
