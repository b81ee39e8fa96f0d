/** The query and documents of a search checked, and the bodies of its requests. */
import { InputError } from '../../../engine/failures/errors';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { MAX_DOCUMENTS, rerankBatches, rerankInput } from '../../../engine/rerank/request';
import { subNodeWords } from '../../support/sub-node-replies.cts';

const WORDS = subNodeWords('the Chat Completions Reranker node', ['topN', 'minScore']);

/** Why the vector store passed no query, as the sub-node reads it from the store (`missing-query.ts`). */
const missing = () => 'is missing: the vector store passed none';

/** What the user reads when the input is refused (nothing is sent). */
function refused(query: unknown, documents: unknown[]) {
	try {
		rerankInput(query, documents, missing);
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		const { message, description } = describeProblem(error, { words: WORDS, model: 'rerank-1' });
		return { message, description };
	}
	throw new Error('the input was taken');
}

const doc = (pageContent: unknown) => ({ pageContent, metadata: { source: 'a' } });

test("takes the vector store's documents by their pageContent, in order, and plain texts", () => {
	expect(rerankInput('capital of France', [doc('Paris'), doc('Rome'), 'Berlin'], missing)).toEqual({
		query: 'capital of France',
		documents: ['Paris', 'Rome', 'Berlin'],
	});
});

test.each([
	[
		'an empty query',
		'',
		[doc('a')],
		'The query to search by: is empty',
		/^An empty query has nothing/,
	],
	[
		'no query',
		undefined,
		[doc('a')],
		'The query to search by: is missing: the vector store passed none',
		/^An empty query/,
	],
	[
		'an empty document',
		'q',
		[doc('a'), doc('')],
		"The vector store's document 2 of 2: is empty",
		/^The service cannot rank a document without text: remove it from the vector store/,
	],
	[
		'a document whose pageContent is a number',
		'q',
		[doc(42)],
		"The vector store's document 1 of 1: is not text but 42",
		/^The service cannot rank/,
	],
	[
		'a document that is neither text nor a document',
		'q',
		['a', null],
		"The vector store's document 2 of 2: is not text but null",
		/^The service cannot rank/,
	],
])(
	'%s is refused before anything is sent, naming it and the fix',
	(_name, query, documents, message, fix) => {
		const said = refused(query, documents);
		expect(said.message).toBe(message);
		expect(said.description).toMatch(fix);
	},
);

test('one request for up to 1,000 documents: plain strings, the query unchanged, top_n = every document when Top N is unset', () => {
	const input = { query: ' Où est  Paris ? ', documents: ['a', 'b', 'c'] };
	expect(rerankBatches({ model: 'rerank-1', fields: {} }, input)).toEqual([
		{
			first: 0,
			body: { model: 'rerank-1', query: ' Où est  Paris ? ', documents: ['a', 'b', 'c'], top_n: 3 },
		},
	]);
});

test.each([
	[2, 2],
	[3, 3],
	[10, 3],
])('Top N %i asks for top_n %i of 3 documents (at most their number)', (topN, expected) => {
	const [batch] = rerankBatches(
		{ model: 'm', fields: {}, topN },
		{ query: 'q', documents: ['a', 'b', 'c'] },
	);
	expect(batch.body.top_n).toBe(expected);
});

test('above 1,000 documents: requests of at most 1,000, in order, each with Top N of its own documents', () => {
	const documents = Array.from({ length: 2 * MAX_DOCUMENTS + 1 }, (_, at) => `document ${at}`);
	const batches = rerankBatches({ model: 'm', fields: {}, topN: 5 }, { query: 'q', documents });
	expect(MAX_DOCUMENTS).toBe(1000);
	expect(batches.map(({ first, body }) => [first, body.documents.length, body.top_n])).toEqual([
		[0, 1000, 5],
		[1000, 1000, 5],
		[2000, 1, 1],
	]);
	expect(batches.flatMap(({ body }) => body.documents)).toEqual(documents);
	expect(
		rerankBatches({ model: 'm', fields: {} }, { query: 'q', documents: documents.slice(0, 1000) }),
	).toHaveLength(1);
});
