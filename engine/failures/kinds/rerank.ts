import { RerankReplyError } from '../errors';
import type { FailureKind } from '../kind';
import { cannotRerank } from '../service-signs';
import { mismatchedReply } from './reply';
import { modelCannot } from './service';

/**
 * What goes wrong only when documents are reranked: a model that cannot rerank, a ranking that does not fit the
 * documents sent. Neither is retried, and neither falls back to another model. A Base URL whose service has no
 * /rerank reads as for every endpoint besides chat (`endpoint.ts`); the rest (the key, a model that does not
 * exist or has no channel, rate limits, 5xx) as for chat.
 */
export const RERANK_KINDS: FailureKind[] = [
	modelCannot('model cannot rerank', cannotRerank, {
		does: 'rerank',
		kind: 'a rerank model',
		fix: 'Choose a rerank model in the Model field (the list shows all the models of the key, chat and embedding models too; rerank models often have "rerank" in their ID).',
	}),
	mismatchedReply(
		'ranking does not fit the documents',
		RerankReplyError,
		'No order of this reply is used: a score matched to the wrong document would put the wrong documents first. Run again; if it keeps happening, report it to the service with this message, or choose another rerank model. A web page instead of results: check the Base URL in the credential.',
	),
];
