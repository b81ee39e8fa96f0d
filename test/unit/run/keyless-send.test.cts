/**
 * An attempt the run sends without the key (a download from another host): a slot of the run and counted as sent,
 * but no turn on the key (its pauses, slots and pacing), and another host's refusal tells the run nothing of the key.
 */
import { KeyFailedEarlier, ServiceError } from '../../../engine/failures/errors';
import { Run } from '../../../engine/run/run';

const keyRun = () =>
	new Run({
		concurrency: 2,
		tokenBudget: 0,
		key: { baseUrl: 'http://keyless.test/v1', apiKey: `sk-keyless-${Math.random()}` },
	});

const sendOnce = async (run: Run, attempt: () => Promise<string>, keyless: boolean) =>
	await run.send(attempt, {
		signal: run.signal(),
		first: true,
		tokensOf: () => undefined,
		...(keyless ? { keyless: true as const } : {}),
	});

const refused = () =>
	new ServiceError(401, 'Invalid token', 'invalid_request_error', undefined, 'json');

test('a keyless attempt takes no turn on the key and is counted as sent; a keyed one takes its turn', async () => {
	const run = keyRun();
	const acquire = jest.spyOn(run.key, 'acquire');
	expect(await sendOnce(run, async () => 'file', true)).toBe('file');
	expect(acquire).not.toHaveBeenCalled();
	expect(run.sent).toBe(1);
	expect(await sendOnce(run, async () => 'reply', false)).toBe('reply');
	expect(acquire).toHaveBeenCalledTimes(1);
	expect(run.sent).toBe(2);
});

test("another host's 401 does not fail the key for the rest of the run; the key's own 401 does", async () => {
	const run = keyRun();
	await expect(sendOnce(run, async () => Promise.reject(refused()), true)).rejects.toThrow(
		ServiceError,
	);
	expect(await sendOnce(run, async () => 'reply', false)).toBe('reply');
	await expect(sendOnce(run, async () => Promise.reject(refused()), false)).rejects.toThrow(
		ServiceError,
	);
	await expect(sendOnce(run, async () => 'reply', false)).rejects.toThrow(KeyFailedEarlier);
});
