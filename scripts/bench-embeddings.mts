/** `npm run bench -- embeddings`: the Embeddings node beside n8n's Embeddings OpenAI node (scripts/bench/embeddings.mts). */
import { benchEmbeddings } from './bench/embeddings.mts';
import { disposeEngine } from '../dev/n8n-core/harness.cts';

try {
	await benchEmbeddings();
} finally {
	await disposeEngine();
}
