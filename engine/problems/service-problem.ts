import type { Problem, ProblemContext } from './problem';
import { hasVersionSegment } from '../connection';
import type { ServiceError } from '../failures';
import { isModelUnavailable, isOutOfBalance } from '../failures';
import { optionPath } from '../options/table';

type Verdict = Pick<Problem, 'message' | 'failure'> & { fix: string };

/** DeepSeek's thinking mode wants an assistant message's reasoning back (V3.2: "Missing `reasoning_content` field ...", V4: "... must be passed back"). */
const REASONING_MISSING =
	/missing `?reasoning_content`? field|reasoning_content\b.*must be passed back/i;
/** Services that take no reasoning on input (Groq, Cerebras: "property 'reasoning_content' is unsupported"). */
const REASONING_REFUSED =
	/\breasoning(_content|_details)?\b.*\b(unsupported|unexpected|not allowed|not permitted|unrecognized)/i;

/** The fix for a 400: the service's message names the field, except for the reasoning rules of thinking models. */
function badRequestFix(serviceMessage: string): string {
	if (REASONING_MISSING.test(serviceMessage)) {
		return "The model thinks before it calls tools and wants that reasoning back: continue the conversation from the Chat Completion node's messages or message output unchanged (they keep reasoning_content), or set Reasoning on the assistant row.";
	}
	if (REASONING_REFUSED.test(serviceMessage)) {
		return 'This service takes no reasoning on the messages sent to it (it comes from a conversation with another service): remove the field from the assistant messages in Messages (JSON), or leave Reasoning empty on the Messages rows.';
	}
	return "The service's message names the problem; correct that field in the node (or in Extra Body) and run again.";
}

function verdict(error: ServiceError, context: ProblemContext): Verdict {
	const { status } = error;
	const model = context.model ? `"${context.model}"` : 'the requested model';
	if (
		isModelUnavailable(error) &&
		(status === 404 || /does not exist/i.test(error.serviceMessage))
	) {
		return {
			message: `Model ${model} does not exist on this service`,
			fix: 'Check the model ID for typos, or pick the model from the list, which shows exactly the models this key may call.',
			failure: { cause: 'configuration-invalid' },
		};
	}
	if (isModelUnavailable(error)) {
		const noChannel = error.errorCode !== 'model_not_found';
		return {
			message: noChannel
				? `Model ${model} is not available to this API key's group: the gateway has no channel for it`
				: `Model ${model} is not available to this API key`,
			fix: "Pick the model from the list, which shows exactly the models this key's token group may call, or ask the account holder to add it to the key's group.",
			failure: { cause: 'configuration-invalid' },
		};
	}
	if (isOutOfBalance(error)) {
		return {
			message: 'The account behind this API key has run out of balance',
			fix: "Top up the balance in the service console (or raise the key's budget), then run again. Retrying without that does not help.",
			failure: { cause: 'quota-exhausted' },
		};
	}
	if (status === 401) {
		return {
			message: 'The service rejected the API key',
			fix: 'Open the credential and paste the key again from the service console: it starts with sk-. If the key has expired or was deleted, create a new one.',
			failure: { cause: 'credential-invalid' },
		};
	}
	if (status === 403) {
		return {
			message: 'This API key is not allowed to make this request',
			fix: "The key's token group decides what it may call: pick a model from the list, or ask the account holder for access.",
			failure: { cause: 'configuration-invalid' },
		};
	}
	if (status === 404) {
		const baseUrl = context.baseUrl ?? '';
		if (baseUrl && !hasVersionSegment(baseUrl)) {
			return {
				message: `The Base URL "${baseUrl}" lacks the version segment /v1, so the service answered 404`,
				fix: 'Open the credential and add /v1 to the Base URL, e.g. https://api.example.com/v1.',
				failure: { cause: 'configuration-invalid' },
			};
		}
		return {
			message: `The service has no such endpoint under "${baseUrl}" (404)`,
			fix: 'Check the Base URL in the credential: it is the address that ends with the version segment, e.g. https://api.example.com/v1.',
			failure: { cause: 'configuration-invalid' },
		};
	}
	if (status === 400) {
		return {
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: badRequestFix(error.serviceMessage),
		};
	}
	if (status === 429) {
		const wait =
			error.retryAfterMs === undefined
				? ''
				: ` The service asks to wait ${error.retryAfterMs / 1000} s.`;
		const fewer = context.withoutConcurrency
			? 'Run fewer executions on this key at once'
			: `Lower ${optionPath('concurrency')} (or run fewer executions on this key at once)`;
		return {
			message: "Too many requests: the service's rate limit for this key was reached",
			fix: `${fewer}, raise ${optionPath('maxRateLimitWait')}, or ask the gateway's admin for a higher limit.${wait}`,
			failure: { cause: 'rate-limited', retryAfterMs: error.retryAfterMs },
		};
	}
	if (status >= 200 && status < 300) {
		return {
			message: `The service reported an error inside a successful (${status}) response: ${error.serviceMessage}`,
			fix: 'Gateways pass on failures of the model provider this way; run again later or choose another model.',
			failure: { cause: 'temporarily-unavailable' },
		};
	}
	if (status === 502 || status === 503 || status === 504) {
		return {
			message: `The service or a gateway in front of it is unavailable (${status})`,
			fix: 'This is a problem on the service side: run again later.',
			failure: { cause: 'temporarily-unavailable' },
		};
	}
	if (status >= 500) {
		return {
			message: `The service failed while answering (${status})`,
			fix: 'This is a problem on the service side: run again later. If it persists, report the message below to the service.',
			failure: { cause: 'temporarily-unavailable' },
		};
	}
	return {
		message: `The service answered with HTTP ${status}`,
		fix: 'Check the message below from the service.',
	};
}

function quoted(error: ServiceError): string {
	const details = [`HTTP ${error.status}`];
	if (error.errorType) details.push(`type ${error.errorType}`);
	if (error.errorCode) details.push(`code ${error.errorCode}`);
	const source =
		error.bodyKind === 'html'
			? 'an HTML page'
			: error.bodyKind === 'empty'
				? 'an empty body'
				: `"${error.serviceMessage}"`;
	const words = error.bodyKind === 'html' ? `${source}: "${error.serviceMessage}"` : source;
	return `The service answered ${words} (${details.join(', ')}).`;
}

export function serviceProblem(error: ServiceError, context: ProblemContext): Problem {
	const { message, fix, failure } = verdict(error, context);
	return {
		kind: 'api',
		message,
		description: `${quoted(error)} ${fix}`,
		httpCode: error.status,
		type: error.errorType,
		code: error.errorCode,
		serviceMessage: error.serviceMessage,
		failure,
	};
}
