/**
 * The end-to-end tests' fixtures (dev/n8n: useRedis, useRealN8n, which register jest's beforeAll and
 * afterAll hooks) outside jest, for a benchmark: the hooks they register while `declare` runs are collected,
 * then the beforeAll hooks run in order, then `body`, then the afterAll hooks in reverse order (always).
 */
type Hook = () => unknown;

export async function withJestFixtures<T>(
	declare: () => T,
	body: (fixtures: T) => Promise<void>,
): Promise<void> {
	const before: Hook[] = [];
	const after: Hook[] = [];
	const scope = globalThis as Record<string, unknown>;
	const saved = { beforeAll: scope.beforeAll, afterAll: scope.afterAll };
	scope.beforeAll = (hook: Hook) => before.push(hook);
	scope.afterAll = (hook: Hook) => after.push(hook);
	let fixtures: T;
	try {
		fixtures = declare();
	} finally {
		Object.assign(scope, saved);
	}
	try {
		for (const hook of before) await hook();
		await body(fixtures);
	} finally {
		for (const hook of after.reverse()) await hook();
	}
}
