/** A key the service quotes back never reaches what the user sees: message, description, codes, details. */
import {
	IncompleteReplyError,
	RateLimitWaitExceeded,
	ServiceError,
} from '../../../engine/failures/errors';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { WORDS } from '../../../nodes/ChatCompletion/words';

const apiKey = 'sk-example-masking-7c1d2e3f4a5b';
const shown = 'sk-…4a5b';
const context = { words: WORDS, model: 'gpt-x', baseUrl: 'https://api.example.com/v1', apiKey };

/** Every text of a problem, to look for the key in. */
const texts = (problem: ReturnType<typeof describeProblem>) =>
	JSON.stringify({ ...problem, raisedByN8n: undefined });

test('a 401 quoting the whole key shows it masked in the message the service sent', () => {
	const error = new ServiceError(
		401,
		`Incorrect API key provided: ${apiKey}.`,
		'invalid_request_error',
		'invalid_api_key',
		'json',
	);
	const problem = describeProblem(error, context);
	expect(problem.serviceMessage).toBe(`Incorrect API key provided: ${shown}.`);
	expect(problem.description).toContain(`"Incorrect API key provided: ${shown}."`);
	expect(texts(problem)).not.toContain(apiKey);
});

test('a part of the key in the type or code is masked there too', () => {
	const error = new ServiceError(
		403,
		'denied',
		`key_${apiKey.slice(0, 20)}`,
		apiKey.slice(-8),
		'json',
	);
	const problem = describeProblem(error, context);
	expect(problem.type).toBe(`key_${shown}`);
	expect(problem.code).toBe(shown);
	expect(texts(problem)).not.toContain(apiKey.slice(-8));
});

test("the key in a rate limit that waited too long, and in a streaming client's description, is masked", () => {
	const last = new ServiceError(
		429,
		`Rate limit reached for ${apiKey}`,
		undefined,
		'rate_limit_exceeded',
		'json',
		2000,
	);
	const problem = describeProblem(new RateLimitWaitExceeded(last, 3, 6000, 6000), {
		...context,
		streaming: true,
	});
	// The message holds the service's words for the execution; the chat user gets none of them.
	expect(problem.message).toContain(`Rate limit reached for ${shown}`);
	expect(problem.description).toBe(
		'The assistant is busy right now. Please try again in a minute.',
	);
	expect(texts(problem)).not.toContain(apiKey);
});

test('a partial reply that echoes the key keeps it masked in error_details', () => {
	const error = new IncompleteReplyError(
		'The reply is incomplete',
		`your key is ${apiKey}`,
		'connection',
	);
	expect(describeProblem(error, context).details).toEqual({
		partial_content: `your key is ${shown}`,
	});
});
