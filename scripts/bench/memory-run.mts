/**
 * One memory measurement in a process of its own (started by scripts/bench/memory.mts), so that no
 * earlier run has grown the heap: `node --expose-gc --import tsx scripts/bench/memory-run.mts
 * <client> <baseUrl> <items> <replyChars> [concurrency]`, the client a name of scripts/bench/clients.mts (sending
 * one item after the other) or of scripts/bench/contenders.mts (a node at its defaults). Every client's
 * process loads the same modules (n8n-core included), then sends the items, keeping the replies.
 * Prints one JSON line.
 */
import process from 'node:process';

import type { ClientName } from './clients.mts';
import { createClient } from './clients.mts';
import type { ContenderName } from './contenders.mts';
import { CONTENDER_NAMES, contenderClient } from './contenders.mts';
import { keys } from '../../dev/service-client/local-service.cts';

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

const [name, baseUrl, items, replyChars, concurrency] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('Run with node --expose-gc.');

const isContender = (CONTENDER_NAMES as readonly string[]).includes(name);
const client = isContender
	? contenderClient(name as ContenderName, baseUrl, keys.default)
	: createClient(name as ClientName, baseUrl);
const text = 'lorem ipsum dolor sit amet, 2KB ';
const options = {
	extraBody: JSON.stringify({ x_local: { text, repeat: Number(replyChars) / text.length } }),
	...(concurrency === undefined ? {} : { concurrency: Number(concurrency) }),
};
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
	replyChars: client.reply(replies[0])?.length ?? 0,
};
console.log(JSON.stringify(figures));
process.exit(0);
