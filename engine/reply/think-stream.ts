/**
 * Separates an inline `<think>…</think>` block at the start of a streamed reply from its text, piece by
 * piece, the way `splitReasoning` does for a whole reply: the reasoning is not shown as the answer.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export interface ThinkSplitter {
	/** Takes the next piece of reply text. */
	push(piece: string): void;
	/** The reply ended: hands on what was held back. */
	end(): void;
}

export function thinkSplitter(
	onText: (text: string) => void,
	onReasoning: (text: string) => void,
): ThinkSplitter {
	let state: 'start' | 'thinking' | 'after' | 'text' = 'start';
	let held = '';

	const emitText = (text: string) => {
		if (text !== '') onText(text);
	};
	const emitReasoning = (text: string) => {
		if (text !== '') onReasoning(text);
	};

	function advance(): void {
		if (state === 'start') {
			const start = held.trimStart();
			if (start.length < OPEN.length && OPEN.startsWith(start)) return;
			if (!start.startsWith(OPEN)) {
				state = 'text';
				emitText(held);
				held = '';
				return;
			}
			state = 'thinking';
			held = start.slice(OPEN.length);
		}
		if (state === 'thinking') {
			const close = held.indexOf(CLOSE);
			if (close === -1) {
				// Keep what may be the start of the closing tag.
				const safe = Math.max(0, held.length - (CLOSE.length - 1));
				emitReasoning(held.slice(0, safe));
				held = held.slice(safe);
				return;
			}
			emitReasoning(held.slice(0, close));
			held = held.slice(close + CLOSE.length);
			state = 'after';
		}
		if (state === 'after') {
			held = held.trimStart();
			if (held === '') return;
			state = 'text';
		}
		emitText(held);
		held = '';
	}

	return {
		push(piece: string): void {
			held += piece;
			advance();
		},
		end(): void {
			if (state === 'start' || state === 'text') emitText(held);
			else if (state === 'thinking') emitReasoning(held);
			held = '';
		},
	};
}
