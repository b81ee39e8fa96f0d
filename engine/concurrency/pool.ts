/**
 * Runs `task(0..count-1)` with at most `limit` tasks in flight, starting them in index order.
 * Once `stop()` is true no further task starts; the ones in flight finish.
 */
export async function runPool(
	count: number,
	limit: number,
	task: (index: number) => Promise<void>,
	stop: () => boolean,
): Promise<void> {
	let next = 0;
	const lane = async (): Promise<void> => {
		while (next < count && !stop()) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
}
