import { Admission } from '../../../engine/concurrency/admission';

/** A task that ends when told to, recording when it started. */
function controlled(started: number[], index: number) {
	let finish!: (value: number) => void;
	let fail!: (error: Error) => void;
	const task = async () => {
		started.push(index);
		return await new Promise<number>((resolve, reject) => {
			finish = resolve;
			fail = reject;
		});
	};
	return { task, finish: () => finish(index), fail: (error: Error) => fail(error) };
}

const settle = async () => await new Promise((resolve) => setImmediate(resolve));

describe('Admission', () => {
	test('starts tasks in order, never more unfinished than the room, and the next as one ends', async () => {
		const started: number[] = [];
		const admission = new Admission<number>(() => 2);
		const tasks = [0, 1, 2, 3].map((index) => controlled(started, index));
		const results = tasks.map(({ task }) => admission.add(task));
		await settle();
		expect(started).toEqual([0, 1]);
		tasks[1].finish();
		await settle();
		expect(started).toEqual([0, 1, 2]);
		tasks[0].finish();
		tasks[2].finish();
		await settle();
		expect(started).toEqual([0, 1, 2, 3]);
		tasks[3].finish();
		expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
	});

	test('asks for the room again each time (Auto changes it), and always lets one task run', async () => {
		const started: number[] = [];
		let room = 0;
		const admission = new Admission<number>(() => room);
		const tasks = [0, 1, 2, 3].map((index) => controlled(started, index));
		tasks.forEach(({ task }) => void admission.add(task));
		await settle();
		expect(started).toEqual([0]);
		room = 3;
		tasks[0].finish();
		await settle();
		expect(started).toEqual([0, 1, 2, 3]);
	});

	test('a failed task rejects its own result and frees its place', async () => {
		const started: number[] = [];
		const admission = new Admission<number>(() => 1);
		const [first, second] = [0, 1].map((index) => controlled(started, index));
		const failed = admission.add(first.task);
		const next = admission.add(second.task);
		await settle();
		first.fail(new Error('no answer'));
		await expect(failed).rejects.toThrow('no answer');
		await settle();
		expect(started).toEqual([0, 1]);
		second.finish();
		expect(await next).toBe(1);
	});
});
