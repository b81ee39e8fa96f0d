import { EmbeddingsReplyError } from '../errors';
import type { FailureKind } from '../kind';
import { cannotEmbed, refusesBatchSize } from '../service-signs';
import { mismatchedReply } from './reply';
import { modelCannot, service } from './service';

/**
 * What goes wrong only when texts are embedded: a model that cannot embed, a batch too large for the
 * gateway, a reply whose vectors do not match the texts. None is retried, and none falls back to another
 * model: vectors of different models must not mix in one vector store.
 */

export const EMBEDDINGS_KINDS: FailureKind[] = [
	modelCannot('model cannot embed', cannotEmbed, {
		does: 'embed',
		kind: 'an embedding model',
		fix: 'Choose an embedding model in the Model field (the list shows all the models of the key, chat models too; embedding models often have "embed" in their ID). Keep one embedding model per vector store: vectors of different models do not compare.',
	}),
	service({
		name: 'batch too large',
		anotherModel: false,
		test: refusesBatchSize,
		words: (_error, { option }) => ({
			message: 'The service refused a batch of this many texts',
			fix: `Lower ${option('batchSize')} to what the service's message allows, then run again.`,
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	mismatchedReply(
		'vectors do not match the texts',
		EmbeddingsReplyError,
		'No vector of this reply is used: a vector matched to the wrong text, or of another length, would put wrong answers in the vector store. Run again; if it keeps happening, report it to the service with this message, or choose another embedding model (and embed the store again with it).',
	),
];
