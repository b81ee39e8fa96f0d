/**
 * n8n 1.x and 2.x before 2.16 have no `@n8n/ai-node-sdk`, and n8n loads every node of a package at start: one
 * module that requires the SDK when it loads takes the whole package down. Here the SDK is resolved as such an
 * n8n resolves it, from a folder that has none ("Cannot find module"), and every node and credential that
 * package.json lists must still load; the Chat Model fails only when it is used. (scripts/check-package.mts
 * loads the packed package so too, and `npm run test:n8n1` runs it in n8n 1.x.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { INode, INodeType, ISupplyDataFunctions } from 'n8n-workflow';

const root = resolve(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
};
/** The TypeScript source of a file package.json lists from dist/. */
const source = (file: string) => join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

let noSdkDir: string;
beforeAll(() => {
	noSdkDir = mkdtempSync(join(tmpdir(), 'chat-completions-no-sdk-'));
});
afterAll(() => rmSync(noSdkDir, { recursive: true, force: true }));

/** Loads the module with the SDK unresolvable; returns its exports. */
function loadWithoutSdk(file: string): Record<string, unknown> {
	let exported: Record<string, unknown> = {};
	jest.isolateModules(() => {
		jest.doMock('@n8n/ai-node-sdk', () =>
			createRequire(join(noSdkDir, 'index.js'))('@n8n/ai-node-sdk'),
		);
		exported = require(file) as Record<string, unknown>;
	});
	return exported;
}

test('the SDK cannot be found here, as on an n8n without it', () => {
	expect(() => createRequire(join(noSdkDir, 'index.js'))('@n8n/ai-node-sdk')).toThrow(
		"Cannot find module '@n8n/ai-node-sdk'",
	);
});

test.each([...manifest.n8n.nodes, ...manifest.n8n.credentials])(
	'%s loads without the SDK',
	(file) => {
		const exported = loadWithoutSdk(source(file));
		expect(Object.keys(exported)).not.toHaveLength(0);
	},
);

test('without the SDK, the Chat Model fails when used: the n8n version it needs, and the node that works', async () => {
	const file = manifest.n8n.nodes.find((node) => node.includes('LmChatCompletions'));
	if (file === undefined) throw new Error('package.json lists no Chat Model node');
	const { LmChatCompletions } = loadWithoutSdk(source(file)) as {
		LmChatCompletions: new () => INodeType;
	};
	const node = { name: 'Chat Completions Chat Model' } as INode;
	const context = { getNode: () => node } as unknown as ISupplyDataFunctions;
	const failure = new LmChatCompletions().supplyData?.call(context, 0);
	await expect(failure).rejects.toThrow(
		/^The Chat Completions Chat Model needs n8n 2\.16\.0 or later: .* the Chat Completion node of the same package works/,
	);
	await expect(failure).rejects.toMatchObject({ functionality: 'configuration-node' });
});
