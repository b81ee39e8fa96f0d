/** The failure table: one row per kind, read by retries, Auto, fallback and the words; its lists in docs/chat-completion.md and the UI. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FAILURES, fallbackRule } from '../../../engine/failures/table';
import { OPTIONS } from '../../../engine/options/table';

test("the Chat Completion node's manual states the Fallback Models rule exactly as the table makes it", () => {
	const manual = readFileSync(join(__dirname, '../../../docs/chat-completion.md'), 'utf8');
	expect(manual).toContain(`> ${fallbackRule()}`);
});

test("Fallback Models' description in the node is made from the table", () => {
	const option = OPTIONS.find((spec) => spec.name === 'fallbackModels')!;
	expect(option.description).toContain(fallbackRule());
});

test('every kind has a name of its own, and only rate limits wait', () => {
	const names = FAILURES.map((row) => row.name);
	expect(new Set(names).size).toBe(names.length);
	expect(FAILURES.filter((row) => row.retry === 'wait').map((row) => row.name)).toEqual([
		'in-flight cap reached',
		'window used up',
		'rate limited',
	]);
	// Overload (Auto's back-off) only for what the service says of its load (a named cap or window is
	// answered by the key's own limit and pacing instead).
	expect(FAILURES.filter((row) => row.overload).map((row) => row.name)).toEqual([
		'rate limited',
		'overloaded',
	]);
});
