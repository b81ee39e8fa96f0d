import { sleep } from 'n8n-workflow';

/**
 * Shared by the requests of one execution: when the service asks one of them to wait
 * (429 with Retry-After), every request waits, not only the one that was told.
 */
export class PauseGate {
	private pausedUntil = 0;

	pause(ms: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
	}

	async wait(signal?: AbortSignal): Promise<void> {
		for (let left = this.pausedUntil - Date.now(); left > 0; left = this.pausedUntil - Date.now()) {
			await sleep(left, signal);
		}
	}
}
