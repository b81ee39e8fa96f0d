import { RerankReplyError } from '../errors';
import type { FailureKind } from '../kind';
import { cannotRerank, lacksRerank } from '../service-signs';
import { mismatchedReply } from './reply';
import { missingVersion, modelCannot, service } from './service';

/**
 * What goes wrong only when documents are reranked: a model that cannot rerank, a Base URL whose service
 * has no /rerank, a ranking that does not fit the documents sent. None is retried, and none falls back to
 * another model. The rest (the key, a model that does not exist or has no channel, rate limits, 5xx) reads as
 * for chat.
 */
export const RERANK_KINDS: FailureKind[] = [
	modelCannot(
		'model cannot rerank',
		cannotRerank,
		'rerank',
		'a rerank model',
		'Choose a rerank model in the Model field (the list shows all the models of the key, chat and embedding models too; rerank models often have "rerank" in their ID).',
	),
	service({
		name: 'no rerank endpoint',
		anotherModel: false,
		test: lacksRerank,
		words: (_error, { baseUrl = '', versioned }) =>
			!versioned
				? missingVersion(baseUrl)
				: {
						message: `The service at "${baseUrl}" has no rerank endpoint: POST ${baseUrl}/rerank answered 404`,
						fix: 'Check the Base URL in the credential: it is the address that ends with the version segment, e.g. https://api.example.com/v1. If it is right, this gateway does not offer reranking: use one that serves POST /rerank.',
						failure: { cause: 'configuration-invalid' },
					},
	}),
	mismatchedReply(
		'ranking does not fit the documents',
		RerankReplyError,
		'No order of this reply is used: a score matched to the wrong document would put the wrong documents first. Run again; if it keeps happening, report it to the service with this message, or choose another rerank model. A web page instead of results: check the Base URL in the credential.',
	),
];
