import { createHash } from 'crypto';

import { Pacer } from './pacer';
import { PauseGate } from './pause-gate';
import { RequestWindow } from './request-window';
import type { Limiter } from '../concurrency/limiter';
import { AUTO, keyLimiter } from '../concurrency/limiter';

/**
 * What every run on one key shares in this n8n process (executions at once, the Chat Model's calls), since the
 * service limits the key, not a run: the pause a Retry-After sets, the pacing from the x-ratelimit headers,
 * the cap on requests in flight the service named, the window a 429 named, and where Auto left off.
 */
export class KeyState {
	/**
	 * The requests in flight Auto last allowed on the key: a run at Auto starts there, so that a key that answered
	 * fine starts with more, and one that said it was overloaded with fewer, than a key new to this process.
	 */
	autoLimit = AUTO.start;
	readonly gate = new PauseGate();
	readonly pacer = new Pacer();
	readonly inFlight: Limiter = keyLimiter();
	readonly window = new RequestWindow();
}

const KEYS = new Map<string, KeyState>();

/** The shared state of a key at a Base URL (known by a hash of the key, never the key itself). */
export function keyState({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }): KeyState {
	const name = `${baseUrl}\n${createHash('sha256').update(apiKey).digest('hex')}`;
	let state = KEYS.get(name);
	if (state === undefined) {
		state = new KeyState();
		KEYS.set(name, state);
	}
	return state;
}
