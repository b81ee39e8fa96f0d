/** `npm run try` builds and installs the package again only when what the build reads changed (issue 66, F22). */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { sourceDigest } from '../../../dev/n8n/community-package.cts';

const root = resolve(__dirname, '..', '..', '..');
let copy = '';

beforeAll(() => {
	copy = mkdtempSync(join(tmpdir(), 'chat-completions-digest-'));
	for (const path of ['package.json', 'tsconfig.json', 'engine', 'nodes', 'test/README.md'])
		cpSync(join(root, path), join(copy, path), { recursive: true });
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

test('the same sources give the same digest; a changed source, or a new one, another', () => {
	const first = sourceDigest(copy);
	expect(sourceDigest(copy)).toBe(first);
	writeFileSync(join(copy, 'test', 'README.md'), 'not read by the build');
	expect(sourceDigest(copy)).toBe(first);
	writeFileSync(join(copy, 'engine', 'values.ts'), '// changed\n', { flag: 'a' });
	const changed = sourceDigest(copy);
	expect(changed).not.toBe(first);
	writeFileSync(join(copy, 'nodes', 'new.ts'), 'export {};\n');
	expect(sourceDigest(copy)).not.toBe(changed);
});
