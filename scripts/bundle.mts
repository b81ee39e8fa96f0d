/**
 * Inlines third-party packages (eventsource-parser, @cfworker/json-schema) into the compiled files that import them, in place:
 * the published package has no runtime dependencies, and n8n installs none for it. n8n-workflow (the
 * host provides it), Node's built-ins and the package's own files stay `require`s, so dist keeps the
 * layout `n8n-node build` gives it. Source maps lead to the TypeScript sources. Run after `n8n-node build`.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { build } from 'esbuild';
import type { Plugin } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');

const ownFilesStayImports: Plugin = {
	name: 'own-files-stay-imports',
	setup(builder) {
		builder.onResolve({ filter: /^\.\.?(\/|$)/ }, ({ path, importer }) =>
			importer.startsWith(dist) ? { path, external: true } : undefined,
		);
	},
};

const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
	file.endsWith('.js'),
);
for (const file of files) {
	const path = join(dist, file);
	const { metafile, outputFiles } = await build({
		entryPoints: [path],
		outfile: path,
		allowOverwrite: true,
		write: false,
		metafile: true,
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'es2022',
		external: ['n8n-workflow', '@n8n/ai-node-sdk'],
		plugins: [ownFilesStayImports],
		sourcemap: true,
		logLevel: 'warning',
	});
	const packages = new Set(
		Object.keys(metafile.inputs)
			.map((input) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(input)?.[1])
			.filter((name) => name !== undefined),
	);
	if (packages.size === 0) continue;
	for (const output of outputFiles) writeFileSync(output.path, output.contents);
	console.log(`inlined into ${relative(root, path)}: ${[...packages].join(', ')}`);
}
