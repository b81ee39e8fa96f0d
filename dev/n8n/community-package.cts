/**
 * This package as n8n installs a community package: built, packed with `npm pack`, unpacked into
 * `<user folder>/.n8n/nodes/node_modules/<name>`, stripped of dev, peer and optional dependencies,
 * and installed with npm's production install (the flags of n8n's CommunityPackagesService).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

export const PACKAGE_NAME = 'n8n-nodes-chat-completions';

const root = resolve(__dirname, '..', '..');

/** `npm run build`, then `npm pack` into `destination`; returns the tarball's path. */
export function packPackage(destination: string): string {
	mkdirSync(destination, { recursive: true });
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
	const output = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], {
		cwd: root,
		encoding: 'utf8',
		stdio: 'pipe',
	});
	return join(destination, output.trim().split('\n').pop() ?? '');
}

/** Where the package is installed in the user folder's community packages. */
export const installedPackageDir = (userFolder: string) =>
	join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);

/** Installs the tarball into the user folder's community packages; returns the package's directory. */
export function installPackage(tarball: string, userFolder: string): string {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = installedPackageDir(userFolder);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

	const manifestPath = join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		readFileSync(manifestPath, 'utf8'),
	) as Record<string, unknown>;
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--omit=dev',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: packageDir, stdio: 'pipe' },
	);
	// n8n lists its community packages in nodes/package.json.
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify(
			{
				name: 'installed-nodes',
				private: true,
				dependencies: { [PACKAGE_NAME]: manifest.version },
			},
			null,
			2,
		),
	);
	return packageDir;
}

/** What the build reads: the package's sources, its manifest and lock file, and the build's own scripts. */
const BUILD_INPUTS = [
	'package.json',
	'package-lock.json',
	'tsconfig.json',
	'scripts/build.sh',
	'scripts/bundle.mts',
	'credentials',
	'engine',
	'icons',
	'nodes',
];

/**
 * One digest of what the build reads under `base` (each file's path and bytes): the same digest, the same
 * package, so that `npm run try` builds and installs it again only when a source changed.
 */
export function sourceDigest(base = root): string {
	const hash = createHash('sha256');
	const add = (path: string): void => {
		const full = join(base, path);
		if (!existsSync(full)) return;
		if (statSync(full).isDirectory()) {
			for (const entry of readdirSync(full).sort()) add(join(path, entry));
			return;
		}
		hash.update(`${path}\0`).update(readFileSync(full)).update('\0');
	};
	for (const input of BUILD_INPUTS) add(input);
	return hash.digest('hex');
}
