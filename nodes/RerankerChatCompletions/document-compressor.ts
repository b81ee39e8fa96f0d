/**
 * What n8n's vector stores call on the reranker they are given, written here as the shape of LangChain's
 * `BaseDocumentCompressor.compressDocuments` (`@langchain/core/retrievers/document_compressors`), so that the
 * package needs no LangChain at run time. `test/unit/rerank/document-compressor.test.cts` holds it against
 * LangChain's own declaration: a change on either side fails to compile.
 */

/** A document as the stores hand it over and take it back (LangChain's `DocumentInterface`). */
export interface StoreDocument {
	pageContent: string;
	metadata: Record<string, unknown>;
	/** An identifier the store may give its documents. */
	id?: string;
}

/** A document compressor as the stores call it (`callbacks`: LangChain's, which the reranker does not use). */
export interface DocumentCompressor {
	compressDocuments(
		documents: StoreDocument[],
		query: string,
		callbacks?: unknown,
	): Promise<StoreDocument[]>;
}
