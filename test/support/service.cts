/**
 * The local service for a jest test file. The launcher, keys and fault models live in
 * dev/service-client (shared with `npm run try` and `npm run bench`) and are re-exported here, so that a
 * test imports everything about the service from one place.
 */
import { startService } from '../../dev/service-client/local-service.cts';
import type { LocalService } from '../../dev/service-client/local-service.cts';

export {
	closedPort,
	faultModels,
	keys,
	startService,
} from '../../dev/service-client/local-service.cts';
export type {
	EndedBy,
	LocalService,
	RecordedRequest,
} from '../../dev/service-client/local-service.cts';

/**
 * For a test file: one service for all its tests, with the request log cleared before each test.
 * Returns a getter, since the service exists only once `beforeAll` has run.
 */
export function useLocalService(options: { args?: string[] } = {}): () => LocalService {
	let service: LocalService | undefined;
	beforeAll(async () => {
		service = await startService(options);
		// The first request of a process loads n8n's AI transport (the AI node SDK and its undici): done here,
		// once, so that tests time their own requests.
		await service.requests();
		await import('@n8n/ai-node-sdk').catch(() => undefined);
	}, 30_000);
	afterAll(async () => {
		await service?.stop();
	});
	beforeEach(async () => {
		await service?.clearRequests();
	});
	return () => {
		if (service === undefined)
			throw new Error('useLocalService(): the service starts in beforeAll');
		return service;
	};
}
