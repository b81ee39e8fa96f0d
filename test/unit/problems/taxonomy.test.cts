/** The error taxonomy as one table: what the service answered -> what the user reads, and whether it is retried. */
import {
	IncompleteReplyError,
	NetworkError,
	RefusedByN8n,
	ServiceError,
	StreamFormatError,
} from '../../../engine/failures/errors';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { WORDS } from '../../../nodes/ChatCompletion/words';
import { isRetryable } from '../../../engine/retry/policy';

const context = {
	words: WORDS,
	model: 'gpt-x',
	baseUrl: 'https://api.example.com/v1',
	apiKey: 'sk-example-taxonomy-1234',
};

type Row = [
	status: number,
	message: string,
	type: string | undefined,
	code: string | undefined,
	reads: string,
	retried: boolean,
];

const rows: Row[] = [
	[
		400,
		'bad field',
		'invalid_request_error',
		undefined,
		'The service rejected the request: bad field',
		false,
	],
	[
		400,
		'Budget has been exceeded',
		'budget_exceeded',
		undefined,
		'The account behind this API key has run out of balance',
		false,
	],
	[401, 'Invalid token', undefined, 'invalid_api_key', 'The service rejected the API key', false],
	[
		402,
		'Insufficient Balance',
		undefined,
		undefined,
		'The account behind this API key has run out of balance',
		false,
	],
	[
		403,
		'no access',
		undefined,
		'model_not_found',
		'Model "gpt-x" is not available to this API key',
		false,
	],
	[
		403,
		'quota',
		undefined,
		'insufficient_user_quota',
		'The account behind this API key has run out of balance',
		false,
	],
	[
		403,
		'forbidden',
		undefined,
		undefined,
		'This API key is not allowed to make this request (model "gpt-x")',
		false,
	],
	[
		403,
		'The model `gpt-x` is not available to your token group `default`',
		'invalid_request_error',
		undefined,
		'Model "gpt-x" is not available to this API key',
		false,
	],
	[
		403,
		"You don't have access to the model with the specified model ID.",
		undefined,
		undefined,
		'Model "gpt-x" is not available to this API key',
		false,
	],
	[
		403,
		'该令牌无权访问模型 gpt-x',
		'new_api_error',
		undefined,
		'Model "gpt-x" is not available to this API key',
		false,
	],
	[
		404,
		'no such model',
		undefined,
		'model_not_found',
		'Model "gpt-x" does not exist on this service',
		false,
	],
	[
		400,
		'The model `gpt-x` does not exist',
		'invalid_request_error',
		'model_not_found',
		'Model "gpt-x" does not exist on this service',
		false,
	],
	[
		404,
		'not found',
		undefined,
		undefined,
		'The service has no such endpoint under "https://api.example.com/v1" (404)',
		false,
	],
	[
		429,
		'slow down',
		undefined,
		'rate_limit_exceeded',
		"Too many requests: the service's rate limit for this key was reached",
		true,
	],
	[
		429,
		'You exceeded your current quota',
		'insufficient_quota',
		'insufficient_quota',
		'The account behind this API key has run out of balance',
		false,
	],
	[500, 'boom', 'server_error', undefined, 'The service failed while answering (500)', true],
	[
		502,
		'Bad Gateway',
		undefined,
		undefined,
		'The service or a gateway in front of it is unavailable (502)',
		true,
	],
	[
		503,
		'overloaded',
		undefined,
		undefined,
		'The service or a gateway in front of it is unavailable (503)',
		true,
	],
	[
		503,
		'当前分组 default 下对于模型 gpt-x 无可用渠道',
		'one_api_error',
		undefined,
		'Model "gpt-x" is not available to this API key\'s group: the gateway has no channel for it',
		false,
	],
	[
		503,
		'No available channel for model gpt-x under group default',
		'new_api_error',
		undefined,
		'Model "gpt-x" is not available to this API key\'s group: the gateway has no channel for it',
		false,
	],
	[
		503,
		'当前分组 default 下对于模型 gpt-x 无可用渠道',
		undefined,
		'model_not_found',
		'Model "gpt-x" is not available to this API key',
		false,
	],
	[
		504,
		'Gateway Timeout',
		undefined,
		undefined,
		'The service or a gateway in front of it is unavailable (504)',
		true,
	],
	[
		200,
		'upstream overloaded',
		undefined,
		'upstream_error',
		'The service reported an error inside a successful (200) response: upstream overloaded',
		false,
	],
];

test.each(rows)(
	'%i %s (type %s, code %s) reads "%s"; retried: %s',
	(status, message, type, code, reads, retried) => {
		const error = new ServiceError(status, message, type, code, 'json');
		const problem = describeProblem(error, context);
		expect(problem.message).toBe(reads);
		expect(problem.kind).toBe('api');
		expect(problem.httpCode).toBe(status);
		// The service's own words are always quoted in the description, with the fix after them.
		expect(problem.description).toContain(`"${message}"`);
		expect(isRetryable(error)).toBe(retried);
	},
);

describe('400s about reasoning get a fix of their own', () => {
	test.each([
		[
			'DeepSeek V3.2',
			'Missing `reasoning_content` field in the assistant message at message index 1. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls',
			/wants that reasoning back/,
		],
		[
			'DeepSeek V4',
			'The reasoning_content in the thinking mode must be passed back to the API.',
			/wants that reasoning back/,
		],
		[
			'Cerebras',
			"messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported",
			/takes no reasoning/,
		],
		[
			'Groq',
			"'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]",
			/takes no reasoning/,
		],
		['any other field', "property 'seed' is unsupported", /names the problem/],
	])('%s', (_name, message, fix) => {
		const problem = describeProblem(
			new ServiceError(400, message, 'invalid_request_error', 'invalid_request_error', 'json'),
			context,
		);
		expect(problem.message).toBe(`The service rejected the request: ${message}`);
		expect(problem.description).toMatch(fix);
	});
});

describe('400s that name a request header: the fix is in Extra Headers', () => {
	test.each([
		[
			'Either x-portkey-config or x-portkey-provider header is required',
			'The service wants the header x-portkey-provider: add it to the credential\'s Extra Headers, as JSON: {"x-portkey-provider": "openai"}',
		],
		[
			'Missing X-Team-Id header',
			'The service wants the header X-Team-Id: add it to the credential\'s Extra Headers, as JSON: {"X-Team-Id": "..."}',
		],
		[
			'Invalid custom host',
			"The header x-portkey-custom-host has a value the service does not take: correct it in the credential's Extra Headers",
		],
		// A header the node sets itself, or words without a header: the usual fix for a field.
		['Invalid header value for content-type', 'correct that field in the node'],
		['max-tokens must be at most 4096', 'correct that field in the node'],
	])('%s', (message, fix) => {
		const problem = describeProblem(
			new ServiceError(400, message, undefined, undefined, 'json'),
			context,
		);
		expect(problem.message).toBe(`The service rejected the request: ${message}`);
		expect(problem.description).toContain(fix);
	});
});

describe('failures without an HTTP answer', () => {
	const timedOut = (code: string, timeoutMs?: number) =>
		new NetworkError('https://api.example.com/v1/chat/completions', code, timeoutMs);

	test.each([
		[timedOut('ECONNABORTED', 500), 'within the Timeout of 500 ms', /above 500 for long answers/],
		[
			timedOut('ETIMEDOUT', 300_000),
			'within the Timeout of 300000 ms (5 min)',
			/above 300000 for long answers/,
		],
		[
			timedOut('ETIMEDOUT'),
			'within the timeout',
			/^Raise Options > Timeout \(Ms\) for long answers/,
		],
	])('a timeout states it and how to raise it (%#)', (error, within, fix) => {
		const problem = describeProblem(error, context);
		expect(problem.message).toBe(
			`The service at https://api.example.com/v1/chat/completions did not answer ${within}`,
		);
		expect(problem.description).toMatch(fix);
		expect(problem.description).toMatch(/not sent again unless Options > Retry Timeouts is on/);
	});

	test("a request n8n refused to send keeps n8n's words and is not retried", () => {
		const error = new RefusedByN8n(
			'The request was blocked because it resolves to a restricted IP address',
			'Ask your n8n administrator to allowlist it.',
		);
		expect(describeProblem(error, context)).toMatchObject({
			kind: 'input',
			message: 'The request was blocked because it resolves to a restricted IP address',
			description: 'Ask your n8n administrator to allowlist it.',
		});
		expect(isRetryable(error, true)).toBe(false);
	});

	test('a stream that is no chat-completion stream does not blame the Base URL (it streamed, so the address is right)', () => {
		const problem = describeProblem(
			new StreamFormatError(
				'The stream ended without any reply: no chunk had choices (120 characters of events)',
			),
			context,
		);
		expect(problem.description).not.toMatch(/Base URL/);
		expect(problem.description).toMatch(
			/Run again; if it keeps happening with this model, report it to the service/,
		);
		const broken = describeProblem(
			new IncompleteReplyError(
				'The connection broke while the reply was streaming, after 42 characters of the reply: the reply is incomplete',
				'Hello',
				'connection',
			),
			context,
		);
		expect(broken.description).not.toMatch(/Base URL/);
		expect(broken.details).toEqual({ partial_content: 'Hello' });
	});

	test("for a streaming client the description is a chat user's words; the message keeps the address and the fix", () => {
		const problem = describeProblem(timedOut('ETIMEDOUT', 500), { ...context, streaming: true });
		expect(problem.description).toBe(
			'The assistant is unavailable right now. Please try again in a moment.',
		);
		expect(problem.message).toMatch(
			/^The service at https:\/\/api\.example\.com\/v1\S* did not answer within the Timeout of 500 ms\. Raise Options > Timeout/,
		);
	});

	test.each([
		[
			'a rate limit',
			new ServiceError(429, 'slow down', undefined, 'rate_limit_exceeded', 'json'),
			'The assistant is busy right now. Please try again in a minute.',
		],
		[
			'a wrong key',
			new ServiceError(401, 'Invalid token', undefined, undefined, 'json'),
			"The assistant is not set up correctly, so it cannot answer. Please let the workflow's owner know.",
		],
		[
			'a request the service rejects',
			new ServiceError(400, 'bad', undefined, undefined, 'json'),
			'The assistant could not answer this message. Please try again, or put it another way.',
		],
	])('a chat user reads %s in their words', (_name, error, words) => {
		const problem = describeProblem(error, { ...context, streaming: true });
		expect(problem.description).toBe(words);
		expect(problem.description).not.toMatch(/api\.example\.com|Options >|credential/);
	});
});
