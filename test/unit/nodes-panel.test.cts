/**
 * What n8n's nodes panel reads of each node: its codex (the `.node.json` beside the node, which n8n loads into
 * the description) and its operations. The panel searches a node's display name and its codex aliases only
 * (not its operations), letter by letter in order; and where the canvas holds no AI node yet, it leaves out
 * of its search every node of category AI but those listed as AI "Root Nodes". The panel itself is checked in
 * Chromium (test/e2e/browser.test.cts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { AccountChatCompletions } from '../../nodes/AccountChatCompletions/AccountChatCompletions.node';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node';
import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';
import { LmChatCompletions } from '../../nodes/LmChatCompletions/LmChatCompletions.node';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { RerankerChatCompletions } from '../../nodes/RerankerChatCompletions/RerankerChatCompletions.node';
import { PANEL_SEARCHES } from '../support/panel-searches.cts';

interface Codex {
	categories: string[];
	subcategories: Record<string, string[]>;
	alias?: string[];
}

const NODES = [
	['ChatCompletion', new ChatCompletion().description],
	['LmChatCompletions', new LmChatCompletions().description],
	['EmbeddingsChatCompletions', new EmbeddingsChatCompletions().description],
	['RerankerChatCompletions', new RerankerChatCompletions().description],
	['MediaChatCompletions', new MediaChatCompletions().description],
	['AccountChatCompletions', new AccountChatCompletions().description],
] as const;

const codexOf = (folder: string): Codex =>
	JSON.parse(
		readFileSync(join(__dirname, '..', '..', 'nodes', folder, `${folder}.node.json`), 'utf8'),
	) as Codex;

const nodes = NODES.map(([folder, description]) => ({ description, codex: codexOf(folder) }));

/** Whether every letter of `search` is in `text` in the same order, as the panel's search matches. */
function inOrder(search: string, text: string): boolean {
	let at = 0;
	for (const letter of text.toLowerCase()) if (letter === search[at]?.toLowerCase()) at++;
	return at === search.length;
}

/** The nodes a search in the panel lists on a canvas without AI nodes (from a trigger's + or the panel's button). */
function found(search: string): string[] {
	return nodes
		.filter(
			({ codex }) =>
				!codex.categories.includes('AI') || codex.subcategories.AI?.includes('Root Nodes'),
		)
		.filter(({ description, codex }) =>
			[description.displayName, ...(codex.alias ?? [])].some((text) => inOrder(search, text)),
		)
		.map(({ description }) => description.displayName);
}

/** The actions n8n makes of a node's operations (one per operation, named by its `action`). */
function actions(description: INodeTypeDescription): string[] {
	return description.properties
		.filter((property: INodeProperties) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		.map((option) => option.action ?? option.name);
}

test.each([
	...PANEL_SEARCHES,
	['Account', 'Chat Completions Account'],
	['Chat Completion', 'Chat Completion'],
])('the panel finds %j: %s among what it lists', (search, node) => {
	expect(found(search)).toContain(node);
});

test('every node that runs on main items is an AI root node, so that the panel lists it on any canvas', () => {
	for (const { description, codex } of nodes) {
		if (!description.inputs.includes('main')) continue;
		expect([description.displayName, codex.subcategories.AI]).toEqual([
			description.displayName,
			expect.arrayContaining(['Root Nodes']),
		]);
	}
});

test("every node is found by each of its operations' actions", () => {
	for (const { description } of nodes)
		for (const action of actions(description))
			expect([action, found(action)]).toEqual([
				action,
				expect.arrayContaining([description.displayName]),
			]);
});
