import {
	IncompleteReplyError,
	NetworkError,
	RateLimitWaitExceeded,
	ServiceError,
	StructuredReplyError,
	TokenBudgetSpent,
} from '../../../engine/failures/errors';
import { classify } from '../../../engine/failures/table';
import { billingOf } from '../../../engine/reply/billing';
import { fallbackModels } from '../../../engine/request/fallback-models';

const service = (status: number, message = 'message', code?: string, type?: string) =>
	new ServiceError(status, message, type, code, 'json');

describe('which failures move on to the next model', () => {
	test.each([
		['404 unknown model', service(404, 'The model `x` does not exist', 'model_not_found'), true],
		[
			'404 unknown model without a code (Ollama)',
			service(404, 'model "llama3" not found, try pulling it first'),
			true,
		],
		['404 of a Base URL without such an endpoint', service(404, 'Not Found'), false],
		[
			'403 outside the group',
			service(403, 'not available to your token group', 'model_not_found'),
			true,
		],
		['503 no channel', service(503, '当前分组 default 下对于模型 x 无可用渠道'), true],
		['500 after the retries', service(500), true],
		['error inside a 200', service(200, 'upstream error'), true],
		[
			'429 rate limit (Max Wait 0)',
			service(429, 'Rate limit reached', 'rate_limit_exceeded'),
			true,
		],
		['rate-limit wait ran out', new RateLimitWaitExceeded(service(429), 3, 1000, 1000), true],
		['timeout', new NetworkError('u', 'ETIMEDOUT', 1000), true],
		['a reply the gateway cut off', new IncompleteReplyError('cut', ''), true],
		[
			'400 images (our service)',
			service(400, 'The model `echo-1` does not support image input', 'model_not_supported'),
			true,
		],
		[
			'400 tools (DeepSeek)',
			service(400, 'deepseek-reasoner does not support Function Calling'),
			true,
		],
		['404 tools (OpenRouter)', service(404, 'No endpoints found that support tool use.'), true],
		[
			'400 tools (Ollama)',
			service(400, 'registry.ollama.ai/library/gemma:2b does not support tools'),
			true,
		],
		[
			'400 json_schema (DeepSeek)',
			service(400, 'This response_format type is unavailable now'),
			true,
		],
		[
			'400 images only on some models',
			service(400, 'Invalid content type. image_url is only supported by certain models.'),
			true,
		],
		['401 key', service(401, 'Invalid token'), false],
		['402 balance', service(402, 'Insufficient Balance'), false],
		['429 insufficient_quota', service(429, 'quota', 'insufficient_quota'), false],
		['403 insufficient_user_quota', service(403, '用户额度不足', 'insufficient_user_quota'), false],
		[
			'400 budget_exceeded',
			service(400, 'Budget has been exceeded', '400', 'budget_exceeded'),
			false,
		],
		['400 wrong in itself', service(400, 'temperature: must be at most 2'), false],
		[
			'400 naming tools but not a missing capability',
			service(400, "Invalid 'tools[0].function.name': string does not match pattern"),
			false,
		],
		['connection refused', new NetworkError('u', 'ECONNREFUSED'), false],
		['cancelled', new NetworkError('u', 'ERR_CANCELED'), false],
		['Token Budget spent', new TokenBudgetSpent({ limit: 10, spent: 12, largest: 6 }), false],
		[
			'JSON that does not fit the schema',
			new StructuredReplyError('bad', '{}', 'missing a'),
			false,
		],
	])('%s', (_name, error, expected) => {
		expect(classify(error).anotherModel).toBe(expected);
	});
});

describe('a model that cannot read files is told apart, with its own fix', () => {
	test.each([
		[
			'our service',
			service(400, 'The model `no-files-1` does not support file input', 'model_not_supported'),
		],
		['PDF input', service(400, 'PDF input is not supported for this model.')],
		[
			'some models only',
			service(400, 'Invalid content type. file is only supported by certain models.'),
		],
		[
			'a service without file parts (vLLM, DeepSeek)',
			service(
				422,
				'Failed to deserialize the JSON body into the target type: messages[0]: unknown variant `file`, expected `text` or `image_url` at line 1 column 90',
			),
		],
		[
			'OpenAI before file parts',
			service(400, "Invalid value: 'file'. Supported values are: 'text' and 'image_url'."),
		],
	])('%s', (_name, error) => {
		const row = classify(error);
		expect(row.name).toBe('model cannot read files');
		expect(row.anotherModel).toBe(true);
	});

	test.each([
		[
			'images',
			service(400, 'The model `echo-1` does not support image input', 'model_not_supported'),
		],
		[
			'a file that is wrong in itself',
			service(400, 'messages[0].content[1].file.file_data: the data is not a PDF'),
		],
		['a rejected key', service(401, 'file not supported')],
	])('not %s', (_name, error) => {
		expect(classify(error).name).not.toBe('model cannot read files');
	});
});

describe('Fallback Models as typed', () => {
	test.each([
		['a, b', ['a', 'b']],
		['a\nb\r\n c ,, \n', ['a', 'b', 'c']],
		[
			['a', ' b '],
			['a', 'b'],
		],
		['main, a, a', ['a']],
		['', []],
		[undefined, []],
	])('%j', (value, expected) => {
		expect(fallbackModels(value, 'main')).toEqual(expected);
	});

	test.each([
		[7, 'Fallback Models: must be text or an array of model IDs, got 7'],
		[['a', null], 'Fallback Models: has an entry that is not a model ID: null'],
		['model a', 'Fallback Models: "model a" contains spaces'],
	])('%j is refused', (value, message) => {
		expect(() => fallbackModels(value, 'main')).toThrow(message);
	});
});

describe('request id and cost of a reply', () => {
	const completion = (extra = {}) => ({ choices: [], ...extra });
	test.each([
		[{ 'x-oneapi-request-id': 'one', 'x-request-id': 'two' }, completion(), 'one'],
		[{ 'x-request-id': 'two' }, completion({ id: 'gen-3' }), 'two'],
		[{ 'x-litellm-call-id': 'three' }, completion(), 'three'],
		[{}, completion({ id: 'gen-3' }), 'gen-3'],
		[{}, completion({ id: 'chatcmpl-4' }), undefined],
	])('%j %j: %s', (headers, reply, requestId) => {
		expect(billingOf(headers, reply).requestId).toBe(requestId);
	});

	test.each([
		[{ 'x-litellm-response-cost': '0.0012' }, completion({ usage: { cost: 0.5 } }), 0.0012],
		[{}, completion({ usage: { cost: 0.5 } }), 0.5],
		[{ 'x-litellm-response-cost': 'n/a' }, completion(), undefined],
		[{}, completion({ usage: { total_tokens: 3 } }), undefined],
	])('%j %j: cost %s', (headers, reply, cost) => {
		expect(billingOf(headers, reply).cost).toBe(cost);
	});
});
