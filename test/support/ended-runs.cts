/**
 * Executions a test started, ended before the next test begins. A test that meets its time limit leaves its
 * execution running (jest moves on to the next test), and the requests it still sends would reach the service
 * during the next test and fail it too: `afterEach` cancels what is still running and waits for it to end.
 */
export function useEndedRuns(): <T>(start: (signal: AbortSignal) => Promise<T>) => Promise<T> {
	const running = new Map<Promise<unknown>, AbortController>();
	afterEach(async () => {
		for (const cancel of running.values()) cancel.abort();
		await Promise.allSettled(running.keys());
	});
	return async (start) => {
		const cancel = new AbortController();
		const run = start(cancel.signal);
		running.set(run, cancel);
		try {
			return await run;
		} finally {
			running.delete(run);
		}
	};
}
