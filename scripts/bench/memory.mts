/**
 * Memory per client, each measured in a fresh process (scripts/bench/memory-run.mts) so that no earlier run
 * has grown the heap; shared by the sequential and the batch parts of the node benchmark.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import process from 'node:process';
import { promisify } from 'node:util';

import type { MemoryFigures } from './memory-run.mts';
import { mb } from './stats.mts';

export type { MemoryFigures };

const MEMORY_RUN = resolve(import.meta.dirname, 'memory-run.mts');

/** `client`: a name of scripts/bench/clients.mts or scripts/bench/contenders.mts; `concurrency`: the node's option. */
export async function measureMemory(
	client: string,
	baseUrl: string,
	items: number,
	replyChars: number,
	concurrency?: number,
): Promise<MemoryFigures> {
	const args = [
		...process.execArgv,
		MEMORY_RUN,
		client,
		baseUrl,
		String(items),
		String(replyChars),
	];
	if (concurrency !== undefined) args.push(String(concurrency));
	const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1024 * 1024 });
	return JSON.parse(stdout.trim().split('\n').pop()!) as MemoryFigures;
}

/** One client's figures as the benchmarks print them. */
export function memoryLine(label: string, figures: MemoryFigures): string {
	return (
		`  ${label}  RSS ${mb(figures.startRss)} at start, peak ${mb(figures.peakRss)} ` +
		`(+${mb(figures.peakRss - figures.startRss)}); replies held after a collection +${mb(figures.heldHeap)}; ` +
		`${figures.seconds.toFixed(1)} s`
	);
}
