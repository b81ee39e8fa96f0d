/**
 * The README's install, run as a user runs it: its commands (build, `npm pack`, `npm install --omit=peer` of the
 * tarball in `~/.n8n/nodes`), with `~` a new folder outside the project, then the package loaded from there by
 * n8n's own loader (n8n-core's PackageDirectoryLoader), given the `n8n-workflow` n8n provides (the project's).
 * npm reads the registry for the peers' names (it installs none of them); npm's cache is preferred.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';

const root = resolve(__dirname, '..', '..');
const home = mkdtempSync(join(tmpdir(), 'chat-completions-readme-install-'));
const nodesDir = join(home, '.n8n', 'nodes');
const packageDir = join(nodesDir, 'node_modules', 'n8n-nodes-chat-completions');

/** The README's shell block under "Installation". */
function installCommands(): string {
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf('\n## Installation\n'));
	const block = /```bash\n([\s\S]*?)```/.exec(section);
	if (!block) throw new Error('README: no bash block under "Installation"');
	return block[1];
}

beforeAll(() => {
	execFileSync('bash', ['-euo', 'pipefail', '-c', installCommands().replaceAll('~/', `${home}/`)], {
		cwd: root,
		env: { ...process.env, npm_config_prefer_offline: 'true' },
		stdio: 'pipe',
	});
}, 300_000);

afterAll(() => {
	rmSync(home, { recursive: true, force: true });
	rmSync(join(root, tarball()), { force: true });
});

/** The tarball `npm pack` makes: the package's name and version. */
function tarball(): string {
	const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		version: string;
	};
	return `n8n-nodes-chat-completions-${version}.tgz`;
}

test("the package alone is installed in ~/.n8n/nodes: none of n8n's packages a second time", () => {
	expect(
		readdirSync(join(nodesDir, 'node_modules')).filter((name) => name !== '.package-lock.json'),
	).toEqual(['n8n-nodes-chat-completions']);
	// ~/.n8n/nodes/package.json names the tarball, which stays there for npm's next install.
	expect(JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8'))).toEqual({
		dependencies: { 'n8n-nodes-chat-completions': `file:${tarball()}` },
	});
	expect(existsSync(join(nodesDir, tarball()))).toBe(true);
});

test("n8n's loader loads the six nodes and the credential from there", async () => {
	symlinkSync(
		join(root, 'node_modules', 'n8n-workflow'),
		join(nodesDir, 'node_modules', 'n8n-workflow'),
	);
	const loader = new PackageDirectoryLoader(packageDir);
	await loader.loadAll();
	expect(loader.types.nodes.map((node) => node.name).sort()).toEqual([
		'accountChatCompletions',
		'chatCompletion',
		'embeddingsChatCompletions',
		'lmChatCompletions',
		'mediaChatCompletions',
		'rerankerChatCompletions',
	]);
	expect(loader.types.credentials.map((credential) => credential.name)).toEqual([
		'chatCompletionsApi',
	]);
});
