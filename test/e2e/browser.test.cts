/**
 * The n8n editor in Chromium, as a user: the credential created through its form, the nodes found in the
 * nodes panel by their names and the words of their operations, the node's model list, and a run whose
 * reply shows in the output panel. Screenshots go to the folder printed below, each checked against the
 * text the page showed when it was taken.
 */
import { resolve } from 'node:path';

import type { Page } from 'playwright-core';

import { DEFAULT_KEY_MODELS } from '../support/listed-models.cts';
import { PANEL_SEARCHES } from '../support/panel-searches.cts';
import { keys, useLocalService } from '../support/service.cts';
import { screenshot, useBrowser } from './support/browser.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { CHAT_NODE_TYPE } from '../../dev/n8n/workflows.cts';

const screenshots = resolve(__dirname, '..', '..', '.cache', 'e2e', 'screenshots');
const PROMPT = 'Hello from the browser test';

const service = useLocalService();
const n8n = useRealN8n(() => ({
	credentials: [],
	workflows: [
		{
			id: 'e2e-browser',
			name: 'Browser test',
			nodes: [
				{
					id: 'a5f0c4a8-8b52-4c55-9d0e-1d2b7f3e6a01',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'b7e1d5b9-9c63-4d66-8e1f-2e3c8a4f7b12',
					name: 'Chat Completion',
					type: CHAT_NODE_TYPE,
					typeVersion: 1,
					position: [240, 0],
					parameters: {
						model: { __rl: true, mode: 'list', value: '' },
						promptType: 'simple',
						prompt: PROMPT,
					},
				},
			],
			connections: { Start: { main: [[{ node: 'Chat Completion', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
	],
}));
const page = useBrowser(() => n8n().url);

beforeAll(() => {
	// The folder is shared with the other Chromium tests, which run beside this one: each file overwrites its own
	// screenshots and removes none of the others'.
	console.log(`browser test screenshots: ${screenshots}`);
});

async function createCredential(p: Page): Promise<{ sent: string; testMessage: string }> {
	await p.goto(`${n8n().url}/home/credentials/create`);
	await p.getByTestId('new-credential-type-select').locator('input').fill('Chat Completions');
	await p
		.getByTestId('new-credential-type-select-option')
		.filter({ hasText: 'Chat Completions API' })
		.click();
	await p.getByTestId('new-credential-type-button').click();
	// Typed key by key as a person does, with the spaces a copy from a console page brings along.
	await p
		.getByTestId('parameter-input-apiKey')
		.locator('input')
		.pressSequentially(`  ${keys.default}  `, { delay: 40 });
	await p
		.getByTestId('parameter-input-baseUrl')
		.locator('input')
		.pressSequentially(service().baseUrl, { delay: 40 });
	await p.keyboard.press('Tab');
	await p.waitForTimeout(500);
	const saved = p.waitForRequest(
		(request) => request.method() === 'POST' && request.url().endsWith('/rest/credentials'),
	);
	const tested = p.waitForResponse((response) => response.url().endsWith('/rest/credentials/test'));
	await p.getByTestId('credential-save-button').click();
	const sent = (await saved).postData() ?? '';
	const testMessage = ((await (await tested).json()) as { data: { message: string } }).data.message;
	return { sent, testMessage };
}

test('the credential, created through its form with spaces around the key, passes its test', async () => {
	const { sent, testMessage } = await createCredential(page());
	expect(JSON.parse(sent).data).toEqual({
		apiKey: `  ${keys.default}  `,
		baseUrl: service().baseUrl,
	});
	// n8n shows its own words for a passed test; the node's message (with the count) is in the answer.
	expect(testMessage).toBe('Connection successful: this key may use 7 models.');
	const modal = page().getByTestId('editCredential-modal');
	await modal.getByText('Connection tested successfully').waitFor();
	expect(await screenshot(page(), screenshots, 'credential', modal)).toContain(
		'Connection tested successfully',
	);
});

test('the nodes panel finds the node by its name', async () => {
	const p = page();
	await p.goto(`${n8n().url}/workflow/new`);
	await p.getByTestId('canvas-add-button').click();
	await p.getByText('Trigger manually').click();
	await p.getByTestId('canvas-handle-plus').first().click();
	await p.keyboard.type('Chat Completion', { delay: 40 });
	const creator = p.getByTestId('node-creator');
	const description = 'Ask any model of an OpenAI-compatible chat-completions service';
	const found = creator.getByText(description);
	await found.waitFor({ timeout: 10_000 }).catch(() => undefined);
	expect(await screenshot(p, screenshots, 'nodes-panel', creator)).toContain(description);
	await found.click();
	// n8n may first show the node's actions (a node usable as a tool has one): the first one adds the node.
	const ndv = p.getByTestId('ndv');
	const opened = await ndv.waitFor({ timeout: 5_000 }).then(
		() => true,
		() => false,
	);
	if (!opened) {
		await creator.getByTestId('item-iterator-item').first().click();
		await ndv.waitFor();
	}
});

test.each(PANEL_SEARCHES)(
	"the nodes panel, opened from a trigger's + on a canvas without AI nodes, finds %j: %s",
	async (search, node) => {
		const p = page();
		await p.goto(`${n8n().url}/workflow/new`);
		await p.getByTestId('canvas-add-button').click();
		await p.getByText('Trigger manually').click();
		await p.getByTestId('canvas-handle-plus').first().click();
		await p.getByTestId('node-creator-search-bar').pressSequentially(search, { delay: 20 });
		const creator = p.getByTestId('node-creator');
		const names = creator.getByTestId('node-creator-item-name');
		const item = names.getByText(node, { exact: true });
		await item.waitFor({ timeout: 10_000 }).catch(() => undefined);
		const shown = await screenshot(
			p,
			screenshots,
			`nodes-panel-${search.replace(/\W+/g, '-')}`,
			creator,
		);
		expect([search, await item.count()]).toEqual([search, 1]);
		expect(shown).toContain(node);
	},
);

test("the node panel lists the key's models From list, and a run shows the reply", async () => {
	const p = page();
	await p.goto(`${n8n().url}/workflow/e2e-browser`);
	await p.locator('[data-test-id="canvas-node"][data-node-name="Chat Completion"]').dblclick();
	const ndv = p.getByTestId('ndv');
	await ndv.waitFor();
	await ndv.getByTestId('rlc-input').click();
	const items = p.getByTestId('rlc-item');
	await items.first().waitFor();
	expect(await items.allInnerTexts()).toEqual(DEFAULT_KEY_MODELS);
	const panel = await screenshot(p, screenshots, 'node-panel', p.locator('body'));
	for (const text of ['Chat Completion', 'Credential', 'Model', ...DEFAULT_KEY_MODELS])
		expect(panel).toContain(text);

	await items.filter({ hasText: /^echo-1$/ }).click();
	await ndv.getByTestId('node-execute-button').click();
	const output = ndv.getByTestId('output-panel');
	await output.getByText(PROMPT).first().waitFor();
	const shown = await screenshot(p, screenshots, 'output', output);
	for (const text of [PROMPT, 'echo-1', 'total_tokens']) expect(shown).toContain(text);
});

test('n8n tried to reach no host outside this machine', () => {
	// The editor's nodes panel asks n8n for n8n's list of verified community nodes unless that is turned off.
	expect(n8n().main.output()).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
});
