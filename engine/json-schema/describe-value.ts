/** How many characters of a text a message shows: enough to recognise it, never a document. */
const SHOWN_CHARACTERS = 40;

/** How many enum members or property names a message lists before it only counts the rest. */
const SHOWN_ITEMS = 10;

const TYPE_WORDS = new Map([
	['string', 'a string'],
	['number', 'a number'],
	['integer', 'a whole number'],
	['boolean', 'true or false'],
	['object', 'an object'],
	['array', 'an array'],
	['null', 'null'],
]);

/** `text` cut after 40 Unicode code points (an ellipsis marks the cut). */
export function shorten(text: string): string {
	let shown = '';
	let count = 0;
	for (const character of text) {
		if (count === SHOWN_CHARACTERS) return `${shown}…`;
		shown += character;
		count++;
	}
	return shown;
}

/** `text` shortened and in double quotes, escaped as JSON so that line breaks stay on one line. */
export function quote(text: string): string {
	return JSON.stringify(shorten(text));
}

/** A value as JSON writes it, shortened: `"pending"`, `3`, `true`, `null`; containers by kind. */
export function literal(value: unknown): string {
	switch (typeof value) {
		case 'string':
			return quote(value);
		case 'number':
		case 'boolean':
		case 'bigint':
			return String(value);
		case 'object':
			if (value === null) return 'null';
			return Array.isArray(value) ? 'an array' : 'an object';
		case 'undefined':
			return 'nothing';
		default:
			return `a ${typeof value}`;
	}
}

/** A value as the end of "got …" says it: `the text "12 EUR"`, `number 3`, `true`, `an object`. */
export function describeValue(value: unknown): string {
	if (typeof value === 'string') return `the text ${quote(value)}`;
	if (typeof value === 'number') return `number ${value}`;
	return literal(value);
}

/** A value written in a schema (an enum member, a const) as compact JSON, shortened. */
export function schemaLiteral(value: unknown): string {
	return typeof value === 'string' ? quote(value) : shorten(String(JSON.stringify(value)));
}

/** A type name in words: `a string`, `a whole number`; an unknown name is quoted. */
export function typeWord(type: string): string {
	return TYPE_WORDS.get(type) ?? quote(type);
}

/** `a`, `a or b`, `a, b or c`. */
export function alternatives(words: readonly string[]): string {
	if (words.length <= 1) return words.join('');
	return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** Up to ten entries joined by commas, then how many others there are: `"a", "b" and 12 others`. */
export function listSome(entries: readonly string[]): string {
	const shown = entries.slice(0, SHOWN_ITEMS).join(', ');
	const others = entries.length - SHOWN_ITEMS;
	return others > 0 ? `${shown} and ${others} others` : shown;
}

/** `1 item`, `3 items`; `count(2, 'property', 'properties')`. */
export function count(amount: number, noun: string, plural = `${noun}s`): string {
	return `${amount} ${amount === 1 ? noun : plural}`;
}
