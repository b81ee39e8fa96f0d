/**
 * The test knobs of a rerank request (its `x_local` object, taken out before validation): a gateway that
 * fails first (`fail_first`, as for chat completions), one without /rerank (`no_rerank`: `html`, nginx's 404
 * page; `json`, the 404 this service gives a path it does not serve), and replies a client must not trust or
 * must put right: `shuffled` (the results worst first, each with its own index), `ignore_top_n` (every
 * document, whatever `top_n` asked), `bad_reply` (one fault, see `BAD_REPLIES`); and `for_query`, which keeps
 * every other knob to a request whose query contains that text (one search of several).
 */
import type { FailFirst } from './knobs.mts';
import { knobReader, readFailFirst } from './knobs.mts';

/**
 * What `bad_reply` breaks: the last result's index one past the documents sent (`index_out_of_range`), the
 * first result sent again at the end (`index_twice`), the last result without `relevance_score` (`no_score`),
 * the first result's score as text (`text_score`), the results under `data` instead of `results`
 * (`no_results`, as a Score API answers), or a web page with status 200 instead of JSON (`html`).
 */
export const BAD_REPLIES = [
	'index_out_of_range',
	'index_twice',
	'no_score',
	'text_score',
	'no_results',
	'html',
] as const;
export type BadReply = (typeof BAD_REPLIES)[number];

const NO_RERANK_PAGES = ['html', 'json'] as const;
export type NoRerankPage = (typeof NO_RERANK_PAGES)[number];

export interface RerankKnobs {
	failFirst?: FailFirst;
	noRerank?: NoRerankPage;
	shuffled: boolean;
	ignoreTopN: boolean;
	badReply?: BadReply;
	/** The knobs apply only to a request whose query contains this text. */
	forQuery?: string;
}

/** The knobs of an `x_local` value (undefined: none set); throws a 400 naming the knob at fault. */
export function parseRerankKnobs(value: unknown): RerankKnobs {
	const reader = knobReader(value);
	const knobs: RerankKnobs = {
		failFirst: readFailFirst(reader.object('fail_first')),
		noRerank: reader.oneOf('no_rerank', NO_RERANK_PAGES),
		shuffled: reader.boolean('shuffled'),
		ignoreTopN: reader.boolean('ignore_top_n'),
		badReply: reader.oneOf('bad_reply', BAD_REPLIES),
		forQuery: reader.string('for_query'),
	};
	reader.rejectUnread();
	return knobs;
}
