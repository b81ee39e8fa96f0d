/** The reader of an embeddings reply: vectors matched to the texts by index, or an error that names the model. */
import { readEmbeddings } from '../../../engine/embeddings/read-reply';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { ServiceError } from '../../../engine/failures/errors';
import { replyWith as reply, subNodeWords } from '../../support/sub-node-replies.cts';

const WORDS = subNodeWords('the Chat Completions Embeddings node', ['batchSize', 'dimensions']);

const entry = (index: number | undefined, embedding: unknown) => ({
	object: 'embedding',
	...(index === undefined ? {} : { index }),
	embedding,
});

/** What the user reads of a reply that fails, for model embed-1. */
function failure(body: unknown, sent: number, status = 200) {
	try {
		readEmbeddings(reply(body, status), sent);
	} catch (error) {
		const { message, description } = describeProblem(error, { words: WORDS, model: 'embed-1' });
		return { message, description };
	}
	throw new Error('the reply was read');
}

test('matches vectors to texts by index, not by position, and reads usage', () => {
	const read = readEmbeddings(
		reply({
			data: [entry(2, [0.3]), entry(0, [0.1]), entry(1, [0.2])],
			usage: { prompt_tokens: 7, total_tokens: 7 },
		}),
		3,
	);
	expect(read).toEqual({
		vectors: [[0.1], [0.2], [0.3]],
		usage: { promptTokens: 7, totalTokens: 7 },
	});
});

/** Numbers as base64 32-bit floats, little-endian, as `encoding_format: "base64"` gives them. */
const base64Of = (numbers: number[]) =>
	Buffer.from(new Float32Array(numbers).buffer).toString('base64');

test('decodes base64 vectors (32-bit floats, little-endian), whatever was asked for', () => {
	expect(readEmbeddings(reply({ data: [entry(0, base64Of([0.5, -0.25, 1]))] }), 1)).toEqual({
		vectors: [[0.5, -0.25, 1]],
		usage: undefined,
	});
});

test.each([
	[
		'another count',
		{ data: [entry(0, [1])] },
		2,
		'The embedding model "embed-1" answered 1 vector for 2 texts',
	],
	[
		'an entry without an index',
		{ data: [entry(0, [1]), entry(undefined, [1])] },
		2,
		'The embedding model "embed-1" sent entry 2 of its reply without an index, so which text its vector belongs to is unknown',
	],
	[
		'an index twice',
		{ data: [entry(0, [1]), entry(0, [1])] },
		2,
		'The embedding model "embed-1" sent two vectors for text 1 (index 0)',
	],
	[
		'an index out of range',
		{ data: [entry(0, [1]), entry(2, [1])] },
		2,
		'The embedding model "embed-1" sent a vector for index 2, but only 2 texts were sent (indexes 0 to 1)',
	],
	[
		'a vector that holds text',
		{ data: [entry(0, ['0.1', 0.2])] },
		1,
		'The embedding model "embed-1" sent a vector for text 1 of the request whose number 1 of 2 is the text "0.1", not a finite number',
	],
	[
		'a vector holding 1e999 (JSON.parse reads Infinity)',
		'{"data":[{"index":0,"embedding":[0.1,0.2]},{"index":1,"embedding":[0.3,1e999]}]}',
		2,
		'The embedding model "embed-1" sent a vector for text 2 of the request whose number 2 of 2 is Infinity, not a finite number',
	],
	[
		'a base64 vector holding NaN',
		{ data: [entry(0, base64Of([0.5, 0.25, 1])), entry(1, base64Of([0.5, 0.25, NaN]))] },
		2,
		'The embedding model "embed-1" sent a base64 vector for text 2 of the request whose number 3 of 3 is NaN, not a finite number',
	],
	[
		'a base64 vector holding -Infinity',
		{ data: [entry(0, base64Of([-Infinity, 0.25]))] },
		1,
		'The embedding model "embed-1" sent a base64 vector for text 1 of the request whose number 1 of 2 is -Infinity, not a finite number',
	],
	[
		'an empty vector',
		{ data: [entry(0, [])] },
		1,
		'The embedding model "embed-1" sent a vector for text 1 of the request that is not a list of numbers (it is empty)',
	],
	[
		'a vector that is null',
		{ data: [entry(0, null)] },
		1,
		'The embedding model "embed-1" sent a vector for text 1 of the request that is not a list of numbers (it is null)',
	],
	[
		'vectors of different lengths',
		{ data: [entry(0, [1, 2]), entry(1, [1])] },
		2,
		'The embedding model "embed-1" sent vectors of different lengths in one reply (2 and 1 numbers)',
	],
	[
		'no list of vectors',
		{ object: 'list' },
		1,
		'The embedding model "embed-1" answered 200 without a list of vectors: {"object":"list"}',
	],
])('%s is an error naming the model, and no vector is used', (_name, body, sent, message) => {
	const { message: said, description } = failure(body, sent);
	expect(said).toBe(message);
	expect(description).toMatch(/^No vector of this reply is used/);
});

test('an error inside a 200 is the service error it says', () => {
	expect(() =>
		readEmbeddings(reply({ error: { message: 'upstream failed', type: 'x' } }), 1),
	).toThrow(ServiceError);
});

test('a chat model asked to embed: the model cannot embed, with the service words and status', () => {
	const body = { error: { message: 'You are not allowed to generate embeddings from this model' } };
	expect(failure(body, 1, 400)).toEqual({
		message: 'Model "embed-1" cannot embed: it is not an embedding model',
		description: expect.stringMatching(
			/^The service answered "You are not allowed to generate embeddings from this model" \(HTTP 400\)\. Choose an embedding model in the Model field/,
		),
	});
});

test.each([
	'batch size is invalid, it should not be larger than 10.: input.contents',
	"'input' : maximum 2048 inputs per request, got 4000",
])('a batch the gateway refuses (%s) says to lower Batch Size', (message) => {
	const { message: said, description } = failure({ error: { message } }, 1, 400);
	expect(said).toBe('The service refused a batch of this many texts');
	expect(description).toMatch(/Lower Options > Batch Size to what the service's message allows/);
});
