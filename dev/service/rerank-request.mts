/** Validation of a rerank request body (POST /v1/rerank), as Cohere's and Jina's endpoints check it. */
import { endpointBody, nonEmptyString, optionalPositiveInteger } from './body-fields.mts';
import { invalidRequest } from './errors.mts';
import { describe, isObject } from './json-value.mts';
import { parseRerankKnobs, type RerankKnobs } from './rerank-knobs.mts';

export interface RerankRequest {
	model: string;
	query: string;
	/** The documents' texts, in order (a document may come as a string or as `{text}`). */
	documents: string[];
	/** How many results to answer, best first; every document when not sent. */
	topN?: number;
	/** Whether each result carries its document as `{text}`. */
	returnDocuments: boolean;
	knobs: RerankKnobs;
}

/** Cohere's limit on documents per request. */
export const MAX_DOCUMENTS = 1000;

/** A document's text: a non-empty string, or an object whose `text` is one; else a 400 naming it. */
function documentText(document: unknown, at: number): string {
	const text = isObject(document) ? document.text : document;
	if (typeof text !== 'string' || text === '') {
		throw invalidRequest(
			`'documents[${at}]' must be a non-empty string or an object with a non-empty 'text', got ${describe(document)}`,
			`documents[${at}]`,
			'invalid_value',
		);
	}
	return text;
}

function parseDocuments(value: unknown): string[] {
	if (!Array.isArray(value) || value.length === 0) {
		throw invalidRequest(
			`'documents' must be a non-empty array, got ${describe(value)}`,
			'documents',
			'invalid_value',
		);
	}
	if (value.length > MAX_DOCUMENTS) {
		throw invalidRequest(
			`'documents' : maximum ${MAX_DOCUMENTS} documents per request, got ${value.length}`,
			'documents',
			'invalid_value',
		);
	}
	return value.map(documentText);
}

/** Parses and validates the body; throws a 400 ApiError naming the field at fault. */
export function parseRerankRequest(rawBody: string): RerankRequest {
	const { body, knobs, model } = endpointBody(
		rawBody,
		['query', 'documents', 'top_n', 'return_documents'],
		parseRerankKnobs,
	);
	const { query, documents, top_n, return_documents } = body;
	const topN = optionalPositiveInteger(top_n, 'top_n');
	if (return_documents !== undefined && typeof return_documents !== 'boolean') {
		throw invalidRequest(
			`'return_documents' must be a boolean, got ${describe(return_documents)}`,
			'return_documents',
			'invalid_type',
		);
	}
	return {
		model,
		query: nonEmptyString(query, 'query'),
		documents: parseDocuments(documents),
		...(topN === undefined ? {} : { topN }),
		returnDocuments: return_documents === true,
		knobs,
	};
}
