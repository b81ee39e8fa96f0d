import { thinkSplitter } from '../../../engine/reply/think-stream';

function split(pieces: string[]) {
	const text: string[] = [];
	const reasoning: string[] = [];
	const splitter = thinkSplitter(
		(piece) => text.push(piece),
		(piece) => reasoning.push(piece),
	);
	for (const piece of pieces) splitter.push(piece);
	splitter.end();
	return { text: text.join(''), reasoning: reasoning.join('') };
}

/** Every way of cutting `whole` in two and in single characters. */
function cuts(whole: string): string[][] {
	const twoPieces = Array.from({ length: whole.length + 1 }, (_, at) => [
		whole.slice(0, at),
		whole.slice(at),
	]);
	return [...twoPieces, Array.from(whole)];
}

describe('inline <think> split from streamed text', () => {
	test.each(cuts('<think>Why blue</think>\n\nThe sky is blue'))('cut %j', (...pieces) => {
		expect(split(pieces)).toEqual({ text: 'The sky is blue', reasoning: 'Why blue' });
	});

	test('text without a think block passes as it is, even one that starts like the tag', () => {
		expect(split(['<thi', 'nk about it'])).toEqual({ text: '<think about it', reasoning: '' });
		expect(split(['  Hello', ' world'])).toEqual({ text: '  Hello world', reasoning: '' });
		expect(split(['The <think> tag later'])).toEqual({
			text: 'The <think> tag later',
			reasoning: '',
		});
	});

	test('text arrives while it streams, not only at the end', () => {
		const text: string[] = [];
		const splitter = thinkSplitter(
			(piece) => text.push(piece),
			() => undefined,
		);
		splitter.push('<think>a</think>Hel');
		expect(text.join('')).toBe('Hel');
		splitter.push('lo');
		expect(text.join('')).toBe('Hello');
	});
});
