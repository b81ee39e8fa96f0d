/**
 * One memory measurement in a process of its own (started by scripts/bench-node.mts), so that no
 * earlier run has grown the heap: `node --expose-gc --import tsx scripts/bench/memory-run.mts
 * <client> <baseUrl> <items> <replyChars>`. Every client's process loads the same modules (n8n-core
 * included), then sends the items one after the other, keeping the replies. Prints one JSON line.
 */
import process from 'node:process';

import type { ClientName } from './clients.mts';
import { createClient } from './clients.mts';

export interface MemoryFigures {
	/** Process RSS when the modules are loaded, after a collection, in bytes. */
	startRss: number;
	/** The kernel's high-water mark of the process RSS over its whole life, in bytes. */
	peakRss: number;
	/** Heap in use after a collection at the end, with every reply still held, above the start. */
	heldHeap: number;
	seconds: number;
	replyChars: number;
}

const [name, baseUrl, items, replyChars] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('Run with node --expose-gc.');

const client = createClient(name as ClientName, baseUrl);
const text = 'lorem ipsum dolor sit amet, 2KB ';
const options = { extraBody: JSON.stringify({ x_local: { text, repeat: Number(replyChars) / text.length } }) };
// One call through the same code, so that first-use compilation is not counted as the items' cost.
await client.run(1, options);
gc();
const startHeap = process.memoryUsage().heapUsed;
const startRss = process.memoryUsage().rss;
const started = performance.now();
const replies = await client.run(Number(items), options);
const seconds = (performance.now() - started) / 1000;
gc();
const figures: MemoryFigures = {
	startRss,
	peakRss: process.resourceUsage().maxRSS * 1024,
	heldHeap: process.memoryUsage().heapUsed - startHeap,
	seconds,
	replyChars: (replies[0].json.content as string).length,
};
console.log(JSON.stringify(figures));
process.exit(0);
