/**
 * How gateways count requests against a per-key limit of `requests` per `windowMs`: a sliding window (the
 * local style, new-api), a token bucket that refills steadily and is full again at its reset (OpenAI), and a
 * fixed window that starts again on the clock's multiples of its length (LiteLLM, OpenRouter).
 */

export interface RequestWindow {
	/** Ms until one more request would be counted, 0 when now. */
	waitMs(now: number): number;
	/** Counts a request. */
	take(now: number): void;
	/** How many more would be counted now. */
	left(now: number): number;
	/** How many are counted now. */
	used(now: number): number;
	/** Ms until the window's reset as its gateway tells it (sliding: its oldest leaves; bucket: full again; fixed: it ends). */
	resetMs(now: number): number;
	/** Forgets every request counted. */
	clear(): void;
}

class SlidingWindow implements RequestWindow {
	#started: number[] = [];

	private readonly requests: number;
	private readonly windowMs: number;

	constructor(requests: number, windowMs: number) {
		this.requests = requests;
		this.windowMs = windowMs;
	}

	#prune(now: number): void {
		while (this.#started.length > 0 && this.#started[0] <= now - this.windowMs)
			this.#started.shift();
	}

	waitMs(now: number): number {
		this.#prune(now);
		return this.#started.length >= this.requests ? this.#started[0] + this.windowMs - now : 0;
	}

	take(now: number): void {
		this.#prune(now);
		this.#started.push(now);
	}

	left(now: number): number {
		return this.requests - this.used(now);
	}

	used(now: number): number {
		this.#prune(now);
		return this.#started.length;
	}

	resetMs(now: number): number {
		this.#prune(now);
		return (this.#started[0] ?? now) + this.windowMs - now;
	}

	clear(): void {
		this.#started = [];
	}
}

class TokenBucket implements RequestWindow {
	#tokens: number;
	#at = 0;

	private readonly capacity: number;
	private readonly windowMs: number;

	constructor(capacity: number, windowMs: number) {
		this.capacity = capacity;
		this.windowMs = windowMs;
		this.#tokens = capacity;
	}

	get #perMs(): number {
		return this.capacity / this.windowMs;
	}

	#refill(now: number): void {
		this.#tokens = Math.min(this.capacity, this.#tokens + (now - this.#at) * this.#perMs);
		this.#at = now;
	}

	waitMs(now: number): number {
		this.#refill(now);
		return this.#tokens >= 1 ? 0 : (1 - this.#tokens) / this.#perMs;
	}

	take(now: number): void {
		this.#refill(now);
		this.#tokens -= 1;
	}

	left(now: number): number {
		this.#refill(now);
		return Math.floor(this.#tokens);
	}

	used(now: number): number {
		return this.capacity - this.left(now);
	}

	resetMs(now: number): number {
		this.#refill(now);
		return (this.capacity - this.#tokens) / this.#perMs;
	}

	clear(): void {
		this.#tokens = this.capacity;
	}
}

class FixedWindow implements RequestWindow {
	#start = 0;
	#count = 0;

	private readonly requests: number;
	private readonly windowMs: number;

	constructor(requests: number, windowMs: number) {
		this.requests = requests;
		this.windowMs = windowMs;
	}

	#roll(now: number): void {
		const start = Math.floor(now / this.windowMs) * this.windowMs;
		if (start !== this.#start) {
			this.#start = start;
			this.#count = 0;
		}
	}

	waitMs(now: number): number {
		this.#roll(now);
		return this.#count >= this.requests ? this.resetMs(now) : 0;
	}

	take(now: number): void {
		this.#roll(now);
		this.#count++;
	}

	left(now: number): number {
		return this.requests - this.used(now);
	}

	used(now: number): number {
		this.#roll(now);
		return this.#count;
	}

	resetMs(now: number): number {
		this.#roll(now);
		return this.#start + this.windowMs - now;
	}

	clear(): void {
		this.#count = 0;
	}
}

export type WindowKind = 'sliding' | 'bucket' | 'fixed';

export function requestWindow(kind: WindowKind, requests: number, windowMs: number): RequestWindow {
	if (kind === 'bucket') return new TokenBucket(requests, windowMs);
	if (kind === 'fixed') return new FixedWindow(requests, windowMs);
	return new SlidingWindow(requests, windowMs);
}
