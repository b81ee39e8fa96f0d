/**
 * Jest globalSetup of the real-n8n tests: n8n installed into the cache (once), Chromium and Redis from
 * Debian when missing, and this package built and packed once for every test file, and installed into the
 * user folder each n8n starts from a copy of; one n8n per jest worker for the files that need none of their
 * own (dev/n8n/shared-n8n.cts; global-teardown.cts stops them).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

import { packPackage } from '../../../dev/n8n/community-package.cts';
import { prepareUserFolder } from '../../../dev/n8n/real-n8n.cts';
import { shareN8nPerWorker } from '../../../dev/n8n/shared-n8n.cts';

const root = resolve(__dirname, '..', '..', '..');

function bash(script: string, args: string[] = []): string {
	return execFileSync('bash', [join(root, script), ...args], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
}

/**
 * n8n (the version given, else scripts/n8n/paths.sh's) installed into the cache, this package packed and
 * installed into a migrated user folder: E2E_N8N_BIN and E2E_N8N_USER_FOLDER for dev/n8n/real-n8n.cts.
 */
export async function installN8nAndPack(version?: string): Promise<void> {
	const started = Date.now();
	const installed = bash('scripts/n8n/install.sh', version === undefined ? [] : [version]);
	const bin = installed.trim().split('\n').pop() as string;
	const folder = join(root, '.cache', 'e2e', 'user-folder');
	await prepareUserFolder(bin, packPackage(join(root, '.cache', 'e2e')), folder);
	process.env.E2E_N8N_BIN = bin;
	process.env.E2E_N8N_USER_FOLDER = folder;
	console.log(
		`\nreal n8n tests: n8n ${version ?? '(default)'} ready, package packed and installed (${Math.round((Date.now() - started) / 1000)} s)`,
	);
}

export default async function globalSetup(): Promise<void> {
	bash('scripts/n8n/apt-install.sh', ['chromium', 'redis-server', 'postgresql']);
	await installN8nAndPack();
	shareN8nPerWorker();
}
