import type { Problem } from './problem';

/**
 * What a chat user reads when a reply fails: a public Chat Trigger's visitor is not the workflow's owner,
 * so no address, key detail or fix meant for n8n, only what happened in their words. The execution keeps
 * the whole problem.
 */
export function chatWords({
	kind,
	failure,
	chatWords: own,
}: Pick<Problem, 'kind' | 'failure' | 'chatWords'>): string {
	// A problem in what the chat user handed over (a file that is not a PDF): theirs to fix.
	if (own !== undefined) return own;
	if (failure?.cause === 'rate-limited') {
		return 'The assistant is busy right now. Please try again in a minute.';
	}
	if (failure?.cause === 'temporarily-unavailable') {
		return 'The assistant is unavailable right now. Please try again in a moment.';
	}
	if (kind === 'input' || failure !== undefined) {
		return "The assistant is not set up correctly, so it cannot answer. Please let the workflow's owner know.";
	}
	return 'The assistant could not answer this message. Please try again, or put it another way.';
}
