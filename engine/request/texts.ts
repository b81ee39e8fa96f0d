import { InputError } from '../failures/errors';
import { describe } from '../values';

/** The field and fix of a query a sub-node searches or ranks by, which must be non-empty text. */
export const QUERY_FIELD = 'The query to search by';
export const QUERY_FIX =
	'An empty query has nothing to search by: check the expression that gives the prompt or query, or the tool description that tells the agent to pass one.';

/**
 * Texts a sub-node sends (to embed, to rank), each a non-empty string: services refuse an empty one, and it
 * has nothing to search by. The first that is not names itself with `field(at, count)` (e.g. `Document 3
 * of 5`) and says `fix`.
 */
export function nonEmptyTexts(
	texts: readonly unknown[],
	field: (at: number, count: number) => string,
	fix: string,
): string[] {
	const at = texts.findIndex((text) => typeof text !== 'string' || text === '');
	if (at === -1) return texts as string[];
	const problem =
		typeof texts[at] === 'string' ? 'is empty' : `is not text but ${describe(texts[at])}`;
	throw new InputError(field(at, texts.length), problem, fix);
}

/**
 * The query a sub-node searches or ranks by, non-empty text. When the vector store passed none at all,
 * `missing()` says why (`missing-query.ts`: the expression of the store's Prompt that found nothing).
 */
export function checkedQuery(query: unknown, missing: () => string): string {
	if (query === undefined || query === null)
		throw new InputError(QUERY_FIELD, missing(), QUERY_FIX);
	const [checked] = nonEmptyTexts([query], () => QUERY_FIELD, QUERY_FIX);
	return checked;
}
