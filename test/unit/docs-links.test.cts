/**
 * The documentation a user is sent to: every node's and the credential's documentation link names a file of
 * docs/ in the repository package.json names, and every relative link of the README and docs/ reaches a file
 * and, with an anchor, one of its headings (a section moved to another file breaks no link).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';

const ROOT = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The repository's file URLs: package.json's repository, as GitHub shows a file of its main branch. */
const FILES_URL = `${(JSON.parse(read('package.json')) as { repository: { url: string } }).repository.url.replace(/\.git$/, '')}/blob/main/`;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\w\- ]/g, '')
		.replace(/ /g, '-');
}

function anchorsIn(path: string): Set<string> {
	const headings = read(path)
		.split('\n')
		.filter((line) => /^#+ /.test(line));
	return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

/** A link's target, a path from the repository's root and an anchor, or an error naming what is missing. */
function brokenLink(from: string, target: string): string | undefined {
	const [pathPart, anchor] = target.split('#');
	const path = pathPart === '' ? from : relative(ROOT, join(ROOT, dirname(from), pathPart));
	if (!existsSync(join(ROOT, path))) return `${from}: ${target} (no file ${path})`;
	if (anchor !== undefined && !anchorsIn(path).has(anchor)) {
		return `${from}: ${target} (no heading #${anchor} in ${path})`;
	}
	return undefined;
}

const codexFiles = readdirSync(join(ROOT, 'nodes')).flatMap((folder) =>
	readdirSync(join(ROOT, 'nodes', folder))
		.filter((name) => name.endsWith('.node.json'))
		.map((name) => `nodes/${folder}/${name}`),
);

test("every node's codex and the credential link to a file of docs/ in the package's repository", () => {
	const urls = codexFiles.flatMap((path) => {
		const { resources } = JSON.parse(read(path)) as {
			resources: Record<string, Array<{ url: string }>>;
		};
		return Object.values(resources).flatMap((links) => links.map((link) => link.url));
	});
	urls.push(new ChatCompletionsApi().documentationUrl);
	expect(codexFiles).toHaveLength(6);
	for (const url of urls) {
		expect(url.startsWith(`${FILES_URL}docs/`)).toBe(true);
		expect(brokenLink('README.md', url.slice(FILES_URL.length))).toBeUndefined();
	}
});

test('every relative link of the README and docs/ reaches a file and a heading', () => {
	const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)];
	const broken = pages.flatMap((page) =>
		[...read(page).matchAll(/\]\(([^)\s]+)\)/g)]
			.map((match) => match[1])
			.filter((target) => !/^[a-z]+:/.test(target))
			.map((target) => brokenLink(page, target))
			.filter((problem) => problem !== undefined),
	);
	expect(broken).toEqual([]);
});
