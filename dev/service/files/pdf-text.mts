/**
 * The text of a simple PDF: the strings its content streams show (`(...) Tj`, `[(...) -20 (...)] TJ`, `'`
 * and `"`), one line per operator, from streams stored as they are or with /FlateDecode. Enough for PDFs a
 * test writes; a PDF whose text is drawn otherwise (fonts with their own encodings, images) reads as none.
 */
import { inflateSync } from 'node:zlib';

/** The content of every stream of the file, inflated where its dictionary says /FlateDecode. */
function streams(pdf: Buffer): string[] {
	const source = pdf.toString('latin1');
	const found: string[] = [];
	const pattern = /<<([^]*?)>>\s*stream\r?\n/g;
	for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
		const start = match.index + match[0].length;
		const end = source.indexOf('endstream', start);
		if (end < 0) break;
		const raw = pdf.subarray(start, end);
		if (!/\/FlateDecode\b/.test(match[1])) {
			found.push(raw.toString('latin1'));
			continue;
		}
		try {
			found.push(inflateSync(raw).toString('latin1'));
		} catch {
			// A stream that does not inflate holds no text we can read.
		}
	}
	return found;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

/** A literal string's text, from after its `(` to its `)`: escapes and nested parentheses read. */
function literal(content: string, open: number): { text: string; end: number } {
	let text = '';
	let depth = 1;
	let index = open + 1;
	for (; index < content.length; index++) {
		const char = content[index];
		if (char === '\\') {
			const next = content[++index] ?? '';
			const octal = /^[0-7]{1,3}/.exec(content.slice(index, index + 3));
			if (octal !== null) {
				text += String.fromCharCode(parseInt(octal[0], 8));
				index += octal[0].length - 1;
			} else if (next !== '\n' && next !== '\r') {
				text += ESCAPES[next] ?? next;
			}
			continue;
		}
		if (char === '(') depth++;
		if (char === ')' && --depth === 0) break;
		text += char;
	}
	return { text, end: index + 1 };
}

const SHOWS = ['Tj', 'TJ', "'", '"'];

/**
 * The lines a content stream shows: the strings (literal or hex) before each text-showing operator, joined;
 * strings before any other operator are not shown text. Names and comments are skipped.
 */
function shownLines(content: string): string[] {
	const lines: string[] = [];
	let strings: string[] = [];
	for (let index = 0; index < content.length; ) {
		const char = content[index];
		const rest = content.slice(index);
		if (char === '(') {
			const { text, end } = literal(content, index);
			strings.push(text);
			index = end;
		} else if (char === '<' && content[index + 1] !== '<') {
			const end = content.indexOf('>', index);
			const hex = content.slice(index + 1, end < 0 ? content.length : end).replace(/\s+/g, '');
			strings.push(Buffer.from(hex.length % 2 === 0 ? hex : `${hex}0`, 'hex').toString('latin1'));
			index = end < 0 ? content.length : end + 1;
		} else if (char === '/' || char === '%') {
			index += (char === '/' ? /^\/[^\s/[\]()<>{}%]*/ : /^%[^\r\n]*/).exec(rest)![0].length;
		} else if (/[A-Za-z'"]/.test(char)) {
			const operator = /^(?:[A-Za-z*]+|'|")/.exec(rest)![0];
			if (SHOWS.includes(operator) && strings.length > 0) lines.push(strings.join(''));
			strings = [];
			index += operator.length;
		} else {
			index++;
		}
	}
	return lines;
}

/** The text a PDF shows, its lines joined with "\n" ('' when it shows none this reader can see). */
export function pdfText(pdf: Buffer): string {
	return streams(pdf)
		.flatMap(shownLines)
		.map((line) => line.trim())
		.filter((line) => line !== '')
		.join('\n');
}
