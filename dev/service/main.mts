/**
 * Local Chat Completions service for demos, development and tests (a dev tool, not published).
 * Usage: node dev/service/main.mts [--port N] [--host 127.0.0.1] [--config FILE] [--latency-ms N]
 *   [--embedding-ms-per-input N] [--rate-limit <key name>=<requests>/<window>[,<in flight>]]... [--verbose]
 * Prints one line when listening; with --verbose logs each request to stderr. Stops on SIGTERM/SIGINT.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, withRateLimits } from './config.mts';
import { models } from './models/registry.mts';
import { parseRateLimitOptions, rateLimitSyntax } from './rate-limit-option.mts';
import { createService } from './server.mts';

const usage =
	'Usage: node dev/service/main.mts [--port N] [--host 127.0.0.1] [--config FILE] [--latency-ms N] ' +
	'[--embedding-ms-per-input N] ' +
	`[--rate-limit ${rateLimitSyntax}]... [--verbose]`;

function integerOption(name: string, value: string, max: number): number {
	const number = Number(value);
	if (!/^\d+$/.test(value) || number > max) {
		throw new Error(`--${name} must be an integer from 0 to ${max}`);
	}
	return number;
}

function main(): void {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '8787' },
			host: { type: 'string', default: '127.0.0.1' },
			config: { type: 'string', default: join(import.meta.dirname, 'config.json') },
			'latency-ms': { type: 'string', default: '0' },
			'embedding-ms-per-input': { type: 'string', default: '0' },
			'rate-limit': { type: 'string', multiple: true, default: [] },
			verbose: { type: 'boolean', default: false },
		},
	});
	const port = integerOption('port', values.port, 65535);
	const latencyMs = integerOption('latency-ms', values['latency-ms'], 600_000);
	const embeddingMsPerInput = integerOption(
		'embedding-ms-per-input',
		values['embedding-ms-per-input'],
		60_000,
	);
	const config = withRateLimits(
		loadConfig(values.config, new Set(models.keys())),
		parseRateLimitOptions(values['rate-limit']),
	);
	const server = createService({
		config,
		latencyMs,
		embeddingMsPerInput,
		...(values.verbose ? { log: (line: string) => console.error(line) } : {}),
	});

	server.on('error', (error) => {
		console.error(`Cannot listen on ${values.host}:${port}: ${error.message}`);
		process.exit(1);
	});
	server.listen(port, values.host, () => {
		const address = server.address();
		const actualPort = typeof address === 'object' && address !== null ? address.port : port;
		const host = values.host.includes(':') ? `[${values.host}]` : values.host;
		console.log(`Chat Completions local service listening on http://${host}:${actualPort}/v1`);
	});

	const stop = (): void => {
		server.close(() => process.exit(0));
		server.closeAllConnections();
	};
	process.once('SIGTERM', stop);
	process.once('SIGINT', stop);
}

try {
	main();
} catch (error) {
	console.error(`${(error as Error).message}\n${usage}`);
	process.exit(2);
}
