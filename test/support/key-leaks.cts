/**
 * Checks that an API key never shows: the console and n8n's log captured while a run goes, and every field
 * of what the run produced (errors' hidden ones too) searched for the key and for any piece of it that a
 * mask (`sk-…5b4a`) would leave out.
 */
import { inspect } from 'node:util';

/** A recognisable key no service knows. */
export const SECRET = 'sk-example-SECRET-9f8e7d6c5b4a';

/** Options for runs that meet failures: retries happen, but short (no wait beyond this many ms in all). */
export const QUICK_RETRIES = { maxRetryWait: 300, maxRateLimitWait: 300 };

/** Everything written while capturing; kept for the whole test file, to show that the capture saw n8n's log. */
let wholeLog = '';

/** What every capture of this test file recorded so far. */
export const capturedLog = () => wholeLog;

const asText = (value: unknown) =>
	typeof value === 'string'
		? value
		: value instanceof Uint8Array
			? Buffer.from(value).toString('utf8')
			: inspect(value, { depth: null });

/** Replaces stdout, stderr and the console's methods (and its own streams, where n8n's logger writes) with a recorder. */
export function startCapture(): () => string {
	const lines: string[] = [];
	const restore: Array<() => void> = [];
	const replace = (target: object | undefined, name: string) => {
		if (target === undefined) return;
		const holder = target as Record<string, unknown>;
		const original = holder[name];
		holder[name] = (...args: unknown[]) => {
			lines.push(args.map(asText).join(' '));
			return true;
		};
		restore.push(() => (holder[name] = original));
	};
	const { _stdout, _stderr } = console as unknown as Record<string, object | undefined>;
	for (const stream of new Set([process.stdout, process.stderr, _stdout, _stderr]))
		replace(stream, 'write');
	for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) replace(console, method);
	return () => {
		for (const undo of restore.reverse()) undo();
		const log = lines.join('\n');
		wholeLog += log;
		return log;
	};
}

/** Every field of a value, errors' hidden ones too (message, stack, description, cause …). */
export const reveal = (value: unknown) =>
	inspect(value, {
		depth: null,
		showHidden: true,
		maxArrayLength: null,
		maxStringLength: null,
		breakLength: Infinity,
	});

/** What `sk-example-` keys share: a quote of it alone tells nothing of the key. */
const SHARED_PREFIX = 'sk-example-';

/**
 * The pieces of a key that must never show: its middle (what the mask `sk-…5b4a` leaves out) and every 8
 * characters of the key in a row that are not all of the prefix every example key shares, as written and
 * as escaped in JSON.
 */
function hiddenParts(apiKey: string): string[] {
	const middle = apiKey.slice(3, -4);
	const pieces = [middle];
	for (let at = 0; at + 8 <= apiKey.length; at++) {
		if (at + 8 > SHARED_PREFIX.length || !apiKey.startsWith(SHARED_PREFIX))
			pieces.push(apiKey.slice(at, at + 8));
	}
	return [...new Set(pieces.flatMap((piece) => [piece, JSON.stringify(piece).slice(1, -1)]))];
}

export function expectHidden(apiKey: string, where: string, text: string): void {
	for (const part of hiddenParts(apiKey)) {
		const at = text.indexOf(part);
		if (at >= 0)
			throw new Error(
				`The key shows in ${where}: …${text.slice(Math.max(0, at - 200), at + 100)}…`,
			);
	}
}

/** Runs `action` with the console captured; asserts that the key shows neither in what it produced nor in the log. */
export async function expectNoLeak<T>(apiKey: string, action: () => Promise<T>): Promise<T> {
	const stop = startCapture();
	let produced: T;
	try {
		produced = await action();
	} finally {
		expectHidden(apiKey, 'the log', stop());
	}
	expectHidden(apiKey, 'the result', reveal(produced));
	return produced;
}
