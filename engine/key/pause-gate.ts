import { sleep } from 'n8n-workflow';

import type { ServiceError } from '../failures/errors';

/**
 * A pause the service asked for (a 429 or 503 with Retry-After), over every request it holds (the key's, or
 * one model's on the key): when one request is told to wait, every one waits, not only the one that was
 * told. When the pause ends, the requests that waited go on spread over the pause's length (at most a
 * second), not all at the same instant, which would meet the service's limit again together.
 */
export class PauseGate {
	#pausedUntil = 0;
	#spreadMs = 0;
	#cause?: ServiceError;
	#causeAt = 0;

	constructor(private readonly random: () => number = Math.random) {}

	/** Holds every request for `ms` from now (a longer pause set before stays); `cause`, the answer that asked. */
	pause(ms: number, cause?: ServiceError): void {
		const until = Date.now() + ms;
		if (until > this.#pausedUntil) {
			this.#pausedUntil = until;
			this.#cause = cause;
			this.#causeAt = Date.now();
		}
		this.#spreadMs = Math.min(1000, Math.max(this.#spreadMs, ms));
	}

	/** How long the pause still holds a request, in ms (0 when none). */
	leftMs(now = Date.now()): number {
		return Math.max(0, this.#pausedUntil - now);
	}

	/** The answer that asked for the pause that holds now. */
	get cause(): ServiceError | undefined {
		return this.leftMs() > 0 ? this.#cause : undefined;
	}

	/** When that answer came (epoch ms; 0 when no pause holds). */
	get causeAt(): number {
		return this.leftMs() > 0 ? this.#causeAt : 0;
	}

	async wait(signal?: AbortSignal): Promise<void> {
		let waited = false;
		for (let left = this.leftMs(); left > 0; left = this.leftMs()) {
			waited = true;
			await sleep(left, signal);
		}
		if (waited) await sleep(Math.round(this.random() * this.#spreadMs), signal);
	}
}
