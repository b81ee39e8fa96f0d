/** What the readers of a sub-node's replies (embeddings, rerank) are given in unit tests, and the words they fail with. */
import type { NodeWords } from '../../engine/failures/kind';
import type { HttpReply } from '../../engine/transport/outgoing';

/** A sub-node's words: its name and options; no reasoning fixes, and no error_details (it has no items). */
export function subNodeWords(node: string, options: string[]): NodeWords {
	return { node, options, errorDetails: false };
}

/** A reply as the transport hands it on: `body` as JSON, or a string as it is. */
export function replyWith(body: unknown, status = 200): HttpReply {
	return { status, headers: {}, text: typeof body === 'string' ? body : JSON.stringify(body) };
}
