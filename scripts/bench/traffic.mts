/** What the local service saw of a key during a benchmark's run: waiting for it to go quiet, and its arrivals. */
import { setTimeout as delay } from 'node:timers/promises';

import type { LocalService } from '../../dev/service-client/local-service.cts';

/** Waits until no request of `key` is in flight, so that a cleared log starts clean. */
export async function drained(service: LocalService, key: string): Promise<void> {
	for (let waited = 0; (await service.traffic())[key].inFlight > 0 && waited < 30_000; waited += 50)
		await delay(50);
}

/** When each request with `apiKey` reached the service (refused ones included), for the in-flight plot. */
export async function arrivalsOf(service: LocalService, apiKey: string): Promise<number[]> {
	return (await service.requests())
		.filter((request) => request.headers.authorization === `Bearer ${apiKey}`)
		.map((request) => request.receivedAt);
}
