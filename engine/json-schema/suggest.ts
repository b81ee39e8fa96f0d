/**
 * The candidate `word` was most likely meant to be, if one is near enough to be a typo: one edit
 * away for words of up to three characters, two for longer ones (so "emial" finds "email"); case
 * does not count.
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
	const allowed = word.length <= 3 ? 1 : 2;
	let best: string | undefined;
	let bestDistance = allowed + 1;
	for (const candidate of candidates) {
		if (Math.abs(candidate.length - word.length) > allowed) continue;
		const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
		if (distance < bestDistance) {
			best = candidate;
			bestDistance = distance;
		}
	}
	return best;
}

/**
 * Levenshtein distance: the fewest insertions, deletions and substitutions that turn `a` into `b`.
 */
function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
			current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
		}
		previous = current;
	}
	return previous[b.length];
}
