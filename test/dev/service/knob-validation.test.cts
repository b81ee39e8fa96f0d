import { keys, useLocalService } from '../../support/service.cts';
import { chat, expectInvalidRequest, hello } from './client.cts';

const service = useLocalService();

describe('x_local validation', () => {
	const cases: Array<[string, unknown, string, RegExp]> = [
		['not an object', 'fast', 'x_local', /'x_local' must be an object/],
		[
			'unknown knob names',
			{ chunk_words: 2, usage_every_chunk: true, turbo: 1 },
			'x_local',
			/unknown fields usage_every_chunk, turbo; known: .*chunk_words/,
		],
		['a boolean knob with a string', { comments: 'yes' }, 'x_local.comments', /must be a boolean/],
		['chunk_words zero', { chunk_words: 0 }, 'x_local.chunk_words', /an integer from 1/],
		['delay_ms fractional', { delay_ms: 1.5 }, 'x_local.delay_ms', /an integer from 0 to 600000/],
		['line_end unknown', { line_end: 'crcr' }, 'x_local.line_end', /one of "lf", "crlf", "cr"/],
		[
			'reasoning_field unknown',
			{ reasoning_field: 'thoughts' },
			'x_local.reasoning_field',
			/"reasoning_content", "reasoning"/,
		],
		[
			'follow_schema with an empty word',
			{ follow_schema: { true_words: ['ignore', ''] } },
			'x_local.follow_schema.true_words',
			/an array of non-empty strings/,
		],
		[
			'follow_schema with an unknown field',
			{ follow_schema: { words: ['ignore'] } },
			'x_local.follow_schema',
			/unknown field words; known: true_words/,
		],
		['text not a string', { text: 5 }, 'x_local.text', /must be a string/],
		['repeat without text', { repeat: 3 }, 'x_local.repeat', /needs 'x_local.text'/],
		[
			'text repeated too long',
			{ text: 'x'.repeat(100), repeat: 1_000_000 },
			'x_local.repeat',
			/exceeds 67108864 characters/,
		],
		['huge_mb above 64', { huge_mb: 65 }, 'x_local.huge_mb', /a number from 0 to 64/],
		['refusal not a string', { refusal: true }, 'x_local.refusal', /must be a string/],
		['null_finish not a boolean', { null_finish: 1 }, 'x_local.null_finish', /must be a boolean/],
		[
			'invalid_json without mode',
			{ invalid_json: { id: 'x', count: 1 } },
			'x_local.invalid_json',
			/'x_local.invalid_json' needs 'id' \(a non-empty string\), 'count' and 'mode'/,
		],
		[
			'invalid_json with another mode',
			{ invalid_json: { id: 'x', count: 1, mode: 'fences' } },
			'x_local.invalid_json.mode',
			/one of "syntax", "schema"/,
		],
		[
			'reject_response_format unknown',
			{ reject_response_format: 'json_object' },
			'x_local.reject_response_format',
			/one of "json_schema", "json"/,
		],
		['fail_first not an object', { fail_first: 2 }, 'x_local.fail_first', /must be an object/],
		[
			'fail_first without id',
			{ fail_first: { count: 1, status: 500 } },
			'x_local.fail_first',
			/needs 'id'/,
		],
		[
			'fail_first with another status',
			{ fail_first: { id: 'x', count: 1, status: 404 } },
			'x_local.fail_first.status',
			/one of 429, 500, 502, 503, 504/,
		],
		[
			'fail_first with an unknown field',
			{ fail_first: { id: 'x', count: 1, status: 500, after: 2 } },
			'x_local.fail_first',
			/unknown field after/,
		],
	];

	it.each(cases)('%s is a 400 naming the knob', async (_case, knobs, param, message) => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			x_local: knobs,
		});
		expectInvalidRequest(reply, param, message);
	});

	it('accepts every knob at once', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			stream: true,
			x_local: {
				chunk_words: 2,
				delay_ms: 0,
				comments: true,
				line_end: 'crlf',
				no_space: true,
				multiline: true,
				role_every_delta: true,
				split_bytes: 64,
				error_after: 5,
				done_after_error: true,
				event_error: false,
				cut_after: 5,
				no_finish_done: false,
				ignore_stream: false,
				reasoning_field: 'reasoning',
				follow_schema: { true_words: ['hi'] },
				text: 'hi ',
				repeat: 2,
				refusal: 'No.',
				refusal_empty_content: true,
				fail_first: { id: 'all', count: 1, status: 429, retry_after: '1', code: 'slow_down' },
				invalid_json: { id: 'all', count: 1, mode: 'schema' },
				reject_response_format: 'json',
				reset: false,
				stall_headers_ms: 0,
				stall_body_ms: 0,
				slow_ms: 0,
			},
		});
		expect(reply.status).toBe(429);
		expect(reply.headers.get('retry-after')).toBe('1');
		expect(reply.json.error.code).toBe('slow_down');
	});
});
