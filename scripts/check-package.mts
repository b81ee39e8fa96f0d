/**
 * Checks the package the way n8n's verification does: the scanner's offline analyser on the
 * source and on the packed tarball, no runtime dependencies, and every node and credential
 * loadable from the tarball with nothing but n8n-workflow (what every n8n host provides), with its
 * icons; then the Chat Model's SDK part with @n8n/ai-node-sdk added (what n8n 2.16 and later provide).
 * Run after `n8n-node build`. Exits 1 on any error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(import.meta.dirname, '..');
/** The Chat Model's part that needs the SDK (nodes/LmChatCompletions/model/supply.ts), as packed. */
const CHAT_MODEL_SDK_PART = 'dist/nodes/LmChatCompletions/model/supply.js';
const work = mkdtempSync(join(tmpdir(), 'chat-completions-pack-'));
const failures: string[] = [];

try {
	const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: root,
		encoding: 'utf8',
	});
	const tarball = join(work, packed.trim().split('\n').pop() ?? '');
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	const packageDir = join(work, 'package');

	for (const [label, dir, patterns] of [
		['source', root, SOURCE_FILE_PATTERNS],
		['packed package', packageDir, ['**/*.js', 'package.json']],
	] as const) {
		const result = await analyzePackage(dir, [...patterns]);
		console.log(`scanner (${label}): ${result.passed ? 'passed' : `FAILED: ${result.message}`}`);
		if (!result.passed) failures.push(`scanner on ${label}:\n${result.details ?? result.message}`);
	}

	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const runtime = Object.keys(manifest.dependencies ?? {});
	if (runtime.length > 0) failures.push(`runtime dependencies: ${runtime.join(', ')}`);

	// What n8n provides to a community package at run time: n8n-workflow, and since n8n 2.16 the AI node
	// SDK (n8n resolves both from its own install), nothing else. Every node and credential must load without
	// the SDK: on n8n 1.x and 2.x before 2.16, one module that cannot load takes the whole package down.
	mkdirSync(join(packageDir, 'node_modules', '@n8n'), { recursive: true });
	symlinkSync(
		join(root, 'node_modules', 'n8n-workflow'),
		join(packageDir, 'node_modules', 'n8n-workflow'),
	);
	const load = createRequire(join(packageDir, 'package.json'));
	const loads = (file: string) => {
		try {
			load(join(packageDir, file));
			return true;
		} catch {
			return false;
		}
	};
	if (loads(CHAT_MODEL_SDK_PART))
		failures.push(
			'@n8n/ai-node-sdk is found from the unpacked package: the check without it proves nothing',
		);
	for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials] as string[]) {
		let exported: Record<string, new () => unknown>;
		try {
			exported = load(join(packageDir, file));
			console.log(
				`loads from the tarball without the AI node SDK: ${file} (${Object.keys(exported).join(', ')})`,
			);
		} catch (error) {
			failures.push(
				`${file} does not load with only n8n-workflow installed: ${(error as Error).message}`,
			);
			continue;
		}
		// `files` in package.json ships parts of dist only: the icons the node and credential name must be among them.
		for (const Type of Object.values(exported)) {
			const instance = new Type() as { icon?: unknown; description?: { icon?: unknown } };
			const icon = instance.description?.icon ?? instance.icon;
			const names =
				typeof icon === 'string' ? [icon] : Object.values((icon ?? {}) as Record<string, string>);
			for (const name of names.filter((value) => value.startsWith('file:'))) {
				if (!existsSync(resolve(dirname(join(packageDir, file)), name.slice('file:'.length)))) {
					failures.push(`${file}: its icon ${name} is not in the tarball`);
				}
			}
		}
	}
	// With the SDK there, the Chat Model's SDK part (loaded when a model is supplied) loads too: in a process
	// of its own, as this one remembers that the SDK's package.json was missing.
	symlinkSync(
		join(root, 'node_modules', '@n8n', 'ai-node-sdk'),
		join(packageDir, 'node_modules', '@n8n', 'ai-node-sdk'),
	);
	try {
		execFileSync(
			process.execPath,
			['-e', 'require(process.argv[1])', join(packageDir, CHAT_MODEL_SDK_PART)],
			{
				stdio: 'pipe',
			},
		);
		console.log(`loads from the tarball with the AI node SDK: ${CHAT_MODEL_SDK_PART}`);
	} catch (error) {
		failures.push(
			`${CHAT_MODEL_SDK_PART} does not load with n8n-workflow and @n8n/ai-node-sdk installed: ${(error as { stderr?: Buffer }).stderr}`,
		);
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
	console.error(failures.join('\n\n'));
	process.exit(1);
}
console.log('package check: passed');
