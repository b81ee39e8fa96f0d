/** Whitespace-separated words: the service's stand-in for tokens. */

export function countWords(text: string): number {
	return text.match(/\S+/g)?.length ?? 0;
}

/** The lower-cased words of `text` (letters and digits), in order: what the embedding and rerank models compare. */
export function lowerWords(text: string): string[] {
	return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** `text` cut after its first `limit` words (original spacing kept); `cut` tells whether words were dropped. */
export function firstWords(text: string, limit: number): { text: string; cut: boolean } {
	let seen = 0;
	for (const match of text.matchAll(/\S+/g)) {
		seen += 1;
		if (seen === limit) {
			const end = match.index + match[0].length;
			return { text: text.slice(0, end), cut: /\S/.test(text.slice(end)) };
		}
	}
	return { text, cut: false };
}

/**
 * `text` split into pieces of `wordsPerPiece` words, each with the whitespace before its words;
 * the pieces join back to `text`.
 */
export function wordPieces(text: string, wordsPerPiece = 1): string[] {
	const words = text.match(/\s*\S+/g) ?? [];
	const rest = text.slice(words.join('').length);
	if (words.length === 0) return rest === '' ? [] : [rest];
	words[words.length - 1] += rest;
	const pieces: string[] = [];
	for (let start = 0; start < words.length; start += wordsPerPiece) {
		pieces.push(words.slice(start, start + wordsPerPiece).join(''));
	}
	return pieces;
}
