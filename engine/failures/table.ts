/**
 * What can go wrong, and what each failure means: `errors.ts`, plain error classes (input, connection,
 * network, service, reply, run; the bottom layer); `kinds/*.ts`, each kind once: how it is recognised, its
 * retry rule, whether it is an overload for Auto, whether another model may help, and the words the user
 * reads, with the node's own words passed in as `NodeWords`; `service-signs.ts`, what a service's code and
 * words say: balance, no channel, a missing model or capability, reasoning, a content policy, a model an
 * image or audio endpoint refuses, an upload too large, an endpoint the service does not offer. Here: the
 * table, `classify`, the one reader, and the Fallback Models rule made from the rows.
 */
import type { FailureKind } from './kind';
import { kind } from './kind';
import { EMBEDDINGS_KINDS } from './kinds/embeddings';
import { ENDPOINT_KINDS } from './kinds/endpoint';
import { INPUT_KINDS } from './kinds/input';
import { MEDIA_KINDS } from './kinds/media';
import { NETWORK_KINDS } from './kinds/network';
import { REPLY_KINDS } from './kinds/reply';
import { RERANK_KINDS } from './kinds/rerank';
import { RUN_KINDS } from './kinds/run';
import { SERVICE_KINDS } from './kinds/service';

/**
 * The failure table: every kind of failure once, in the order they are told apart (the first row that
 * matches is the failure's kind). Retries (`retry/`), Auto's back-off (`concurrency/`), Fallback Models
 * (`client.ts`) and the words the user reads (`problems/`) all read a failure's row, and nothing else.
 */
const UNEXPECTED = kind<unknown>({
	name: 'unexpected',
	side: 'api',
	retry: 'never',
	overload: false,
	anotherModel: false,
	matches: (_error): _error is unknown => true,
	words: (error, { words }) => ({
		message: error instanceof Error ? error.message : String(error),
		fix: `Unexpected failure in ${words.node}.`,
	}),
});

export const FAILURES: readonly FailureKind[] = [
	...EMBEDDINGS_KINDS,
	...RERANK_KINDS,
	...MEDIA_KINDS,
	...ENDPOINT_KINDS,
	...SERVICE_KINDS,
	...NETWORK_KINDS,
	...REPLY_KINDS,
	...RUN_KINDS,
	...INPUT_KINDS,
	UNEXPECTED,
];

/** The row of a failure: what kind it is, what is done about it, and its words. */
export function classify(error: unknown): FailureKind {
	return FAILURES.find((row) => row.matches(error)) ?? UNEXPECTED;
}

/** The failures that fall back to another model, and those that never do, as the lists name them. */
export function fallbackLists(): { fallsBack: string[]; never: string[] } {
	const listed = FAILURES.filter((row) => row.listed !== undefined);
	return {
		fallsBack: listed.filter((row) => row.anotherModel).map((row) => row.listed!),
		never: listed.filter((row) => !row.anotherModel).map((row) => row.listed!),
	};
}

/** Fallback Models' rule in one sentence pair, for its description in the node and in docs/chat-completion.md. */
export function fallbackRule(): string {
	const { fallsBack, never } = fallbackLists();
	return `Tried when the model fails in a way another model may not: ${fallsBack.join(', ')}. Never after a failure every model would share: ${never.join(', ')}.`;
}
