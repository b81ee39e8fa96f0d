import { createHash } from 'crypto';

import { Pacer } from './pacer';
import { PauseGate } from './pause-gate';
import { RequestWindow } from './request-window';
import type { Limiter } from '../concurrency/limiter';
import { AUTO, keyLimiter } from '../concurrency/limiter';
import type { ServiceError } from '../failures/errors';
import type { KeySign } from '../failures/kind';

/** A pause that holds a request: how long still, the answer that asked for it, and when it came (epoch ms). */
export interface Held {
	leftMs: number;
	cause?: ServiceError;
	causeAt?: number;
}

/**
 * The key's one room: what every run on one key shares in this n8n process (executions at once, every node's
 * run, the Chat Model's calls), since the service limits the key, not a run. The pauses a service asked for
 * (the key's, and each model's when its answer named the model), the pacing from the x-ratelimit headers, the
 * cap on requests in flight the service named (`inFlight`), the window a 429 named, and where Auto left off.
 * What a failure tells it comes from the failure's row (`KeySign`), through `learn` (the cap through the
 * request's slot in `inFlight`, which knows which requests were sent before it).
 */
export class KeyState {
	/**
	 * The requests in flight Auto last allowed on the key: a run at Auto starts there, so that a key that answered
	 * fine starts with more, and one that said it was overloaded with fewer, than a key new to this process.
	 */
	autoLimit = AUTO.start;
	readonly pacer = new Pacer();
	readonly inFlight: Limiter = keyLimiter();
	readonly window = new RequestWindow();
	readonly #keyPause = new PauseGate();
	readonly #modelPauses = new Map<string, PauseGate>();

	/** Learns what an answer told of the key: a window to keep to (every request pauses until it has room), a pause. */
	learn(sign: KeySign, cause: ServiceError): void {
		if ('window' in sign) this.#keyPause.pause(this.window.refused(sign.window), cause);
		else if ('pauseMs' in sign) this.#pause(sign.model).pause(sign.pauseMs, cause);
	}

	/** The pause that holds a request for `model` now (the key's, or the model's, whichever ends later). */
	held(model?: string): Held {
		const gates = this.#gates(model);
		const longest = gates.reduce((a, b) => (b.leftMs() > a.leftMs() ? b : a));
		return { leftMs: longest.leftMs(), cause: longest.cause, causeAt: longest.causeAt };
	}

	/** Waits until no pause holds a request for `model`. */
	async waitPauses(model: string | undefined, signal: AbortSignal): Promise<void> {
		while (this.held(model).leftMs > 0) {
			for (const gate of this.#gates(model)) await gate.wait(signal);
		}
	}

	#gates(model?: string): PauseGate[] {
		const own = model === undefined ? undefined : this.#modelPauses.get(model);
		return own === undefined ? [this.#keyPause] : [this.#keyPause, own];
	}

	#pause(model?: string): PauseGate {
		if (model === undefined) return this.#keyPause;
		let gate = this.#modelPauses.get(model);
		if (gate === undefined) {
			gate = new PauseGate();
			this.#modelPauses.set(model, gate);
		}
		return gate;
	}
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
