/**
 * `npm run bench -- queue` (and the end of `npm run bench`): the queue-mode benchmark, real n8n with 4 workers
 * and 4 executions on one rate-limited key, the Chat Completion node beside n8n's HTTP Request node
 * (scripts/bench/queue.mts). Needs E2E_N8N_BIN (n8n's binary, installed into the cache) and redis-server on
 * PATH, which scripts/bench.sh provides: `node --import tsx scripts/bench-queue.mts`.
 */
import process from 'node:process';

import { benchQueue } from './bench/queue.mts';

console.log(`Node ${process.versions.node}; model echo-1`);
await benchQueue();
