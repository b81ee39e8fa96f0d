import type { BodyKind } from '../failures/errors';
import { tryParseJson } from '../values';

/** Reads a response body whatever it is: JSON, two JSON objects back to back, HTML, plain text or nothing. */

export interface ReadBody {
	kind: BodyKind;
	json?: unknown;
	/** A short human-readable form of a body that is not JSON. */
	summary: string;
}

/** The end of the first complete JSON object or array at the start of `text`, or -1. */
function firstValueEnd(text: string): number {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === '{' || char === '[') {
			depth++;
		} else if (char === '}' || char === ']') {
			depth--;
			if (depth === 0) return index + 1;
		}
	}
	return -1;
}

/** Error pages say what they are near the top; only that much is read, so a huge page costs little. */
const HTML_HEAD_CHARS = 16_384;

function htmlSummary(page: string): string {
	const html = page.slice(0, HTML_HEAD_CHARS);
	const title =
		/<title[^<>]*>([^<]*)<\/title>/i.exec(html)?.[1] ?? /<h1[^<>]*>([^<]*)<\/h1>/i.exec(html)?.[1];
	const text = (title ?? html.replace(/<[^<>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
	return text.slice(0, 200);
}

export function readBody(raw: string): ReadBody {
	const text = raw.trim();
	if (text === '') return { kind: 'empty', summary: '(empty body)' };
	const whole = tryParseJson(text);
	if (whole.ok) return { kind: 'json', json: whole.value, summary: text.slice(0, 200) };
	if (text.startsWith('{') || text.startsWith('[')) {
		const end = firstValueEnd(text);
		const first = end > 0 ? tryParseJson(text.slice(0, end)) : { ok: false as const, reason: '' };
		if (first.ok) return { kind: 'json', json: first.value, summary: text.slice(0, 200) };
	}
	if (/^<(!doctype|html|head|body|center|h1|\?xml)/i.test(text)) {
		return { kind: 'html', summary: htmlSummary(text) };
	}
	return { kind: 'text', summary: text.replace(/\s+/g, ' ').slice(0, 200) };
}
