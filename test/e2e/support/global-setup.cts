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

export default function globalSetup(): void {
	const started = Date.now();
	process.env.E2E_N8N_BIN = bash('scripts/n8n/install.sh').trim().split('\n').pop();
	bash('scripts/n8n/apt-install.sh', ['chromium', 'redis-server']);
	process.env.E2E_TARBALL = packPackage(join(root, '.cache', 'e2e'));
	console.log(
		`\nreal n8n tests: n8n ready, package packed (${Math.round((Date.now() - started) / 1000)} s)`,
	);
}
