/**
 * Jest globalSetup of the real-n8n tests: n8n installed into the cache (once), Chromium and Redis from
 * Debian when missing, and this package built and packed once for every test file.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

import { packPackage } from '../../../dev/n8n/community-package.cts';

const root = resolve(__dirname, '..', '..', '..');

function bash(script: string, args: string[] = []): string {
	return execFileSync('bash', [join(root, script), ...args], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
}

/**
 * n8n (the version given, else scripts/n8n/paths.sh's) installed into the cache and this package packed:
 * E2E_N8N_BIN and E2E_TARBALL for dev/n8n/real-n8n.cts.
 */
export function installN8nAndPack(version?: string): void {
	const started = Date.now();
	const installed = bash('scripts/n8n/install.sh', version === undefined ? [] : [version]);
	process.env.E2E_N8N_BIN = installed.trim().split('\n').pop();
	process.env.E2E_TARBALL = packPackage(join(root, '.cache', 'e2e'));
	console.log(
		`\nreal n8n tests: n8n ${version ?? '(default)'} ready, package packed (${Math.round((Date.now() - started) / 1000)} s)`,
	);
}

export default function globalSetup(): void {
	bash('scripts/n8n/apt-install.sh', ['chromium', 'redis-server', 'postgresql']);
	installN8nAndPack();
}
