import { isPlainObject } from '../values';

/** How a reader's errors name its reply's entries and what was sent, e.g. entry, vector, text. */
export interface EntryWords {
	/** One element of the reply's list: `entry`, `result`. */
	entry: string;
	/** What an entry gives for the item it names: `vector`, `score`. */
	value: string;
	/** What was sent: `text`, `document`. */
	item: string;
	/** The reader's error for what is wrong, said of the model. */
	fail(problem: string): Error;
}

/**
 * The `index` of the reply's entry `at` (counted from 0): which of the `sent` items it belongs to, never its
 * position. An entry without a whole-number index, with one outside the items sent, or with one an earlier
 * entry took (`taken`, which this adds to) is the reader's error.
 */
export function entryIndex(
	entry: unknown,
	at: number,
	sent: number,
	taken: Set<number>,
	words: EntryWords,
): number {
	const { item, value } = words;
	const index = isPlainObject(entry) ? entry.index : undefined;
	if (typeof index !== 'number' || !Number.isInteger(index)) {
		throw words.fail(
			`sent ${words.entry} ${at + 1} of its reply without an index, so which ${item} its ${value} belongs to is unknown`,
		);
	}
	if (index < 0 || index >= sent) {
		throw words.fail(
			`sent a ${value} for index ${index}, but only ${sent} ${item}s were sent (indexes 0 to ${sent - 1})`,
		);
	}
	if (taken.has(index)) {
		throw words.fail(`sent two ${value}s for ${item} ${index + 1} (index ${index})`);
	}
	taken.add(index);
	return index;
}
