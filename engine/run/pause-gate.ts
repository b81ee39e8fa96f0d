import { sleep } from 'n8n-workflow';

/**
 * Shared by the requests of one execution: when the service asks one of them to wait
 * (429 with Retry-After), every request waits, not only the one that was told. When the pause
 * ends, the requests that waited go on spread over the pause's length (at most a second), not all at
 * the same instant, which would meet the service's limit again together.
 */
export class PauseGate {
	private pausedUntil = 0;
	private spreadMs = 0;

	constructor(private readonly random: () => number = Math.random) {}

	pause(ms: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
		this.spreadMs = Math.min(1000, Math.max(this.spreadMs, ms));
	}

	async wait(signal?: AbortSignal): Promise<void> {
		let waited = false;
		for (let left = this.pausedUntil - Date.now(); left > 0; left = this.pausedUntil - Date.now()) {
			waited = true;
			await sleep(left, signal);
		}
		if (waited) await sleep(Math.round(this.random() * this.spreadMs), signal);
	}
}
