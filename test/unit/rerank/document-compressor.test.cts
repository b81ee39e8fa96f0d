/**
 * The Reranker as n8n's vector stores call it: LangChain's `BaseDocumentCompressor.compressDocuments`. The
 * package declares that shape itself (`document-compressor.ts`, no LangChain at run time); these checks are
 * types, held against LangChain's own declaration, so that a change on either side fails to compile (tsc).
 */
import type { DocumentInterface } from '@langchain/core/documents';
import type { BaseDocumentCompressor } from '@langchain/core/retrievers/document_compressors';

import type {
	DocumentCompressor,
	StoreDocument,
} from '../../../nodes/RerankerChatCompletions/document-compressor';
import type { ChatCompletionsReranker } from '../../../nodes/RerankerChatCompletions/reranker';

/** A method's type as a plain function's, whose parameters are compared strictly (a method's are not). */
type AsFunction<F> = F extends (...args: infer A) => infer R ? (...args: A) => R : never;
/** Whether a value of `A` may stand where `B` is asked. */
type Fits<A, B> = [A] extends [B] ? true : false;
/** Compiles only for `true`. */
const holds = <T extends true>(): T => true as T;

type Theirs = AsFunction<BaseDocumentCompressor['compressDocuments']>;

test("the Reranker's compressDocuments is one a vector store may call as LangChain's", () => {
	expect(holds<Fits<AsFunction<DocumentCompressor['compressDocuments']>, Theirs>>()).toBe(true);
	expect(holds<Fits<AsFunction<ChatCompletionsReranker['compressDocuments']>, Theirs>>()).toBe(
		true,
	);
});

test("a store's document is LangChain's, both ways", () => {
	expect(holds<Fits<StoreDocument, DocumentInterface>>()).toBe(true);
	expect(holds<Fits<DocumentInterface, StoreDocument>>()).toBe(true);
});
