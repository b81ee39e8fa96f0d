/**
 * The Chat Model in the n8n editor (Chromium), as a user adds it: from the AI Agent's Chat Model input, the
 * nodes panel shows Language Models and the node among them; it attaches to the agent; its panel takes
 * the credential and lists the key's models. And as a user meets its failure (slower than Timeout): the toast
 * and the AI Agent's error panel show the model's message once, not n8n's generic headline. Screenshots go to
 * .cache/e2e/screenshots/chat-model-*.png.
 */
import { resolve } from 'node:path';

import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { DEFAULT_KEY_MODELS } from '../support/listed-models.cts';
import { keys, useLocalService } from '../support/service.cts';
import { screenshot, useBrowser } from './support/browser.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';

const screenshots = resolve(__dirname, '..', '..', '.cache', 'e2e', 'screenshots');
const MODEL_NAME = 'Chat Completions Chat Model';
const WORKFLOW = 'e2e-chat-model-ui';
const FAILING = 'e2e-chat-model-ui-failing';

const service = useLocalService();

/** Start -> AI Agent (v3.1, prompt "Hello"), the agent without a model; node ids begin with `prefix`. */
function agentNodes(prefix: string) {
	return [
		{
			id: `${prefix}-start`,
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: `${prefix}-agent`,
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [260, 0],
			parameters: { promptType: 'define', text: 'Hello', options: {} },
		},
	];
}
const toAgent = { Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] } };

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	return {
		credentials: [credential],
		workflows: [
			{
				id: FAILING,
				name: 'Chat Model failing in the editor',
				nodes: [
					...agentNodes('failing'),
					{
						id: 'failing-model',
						name: MODEL_NAME,
						type: 'n8n-nodes-chat-completions.lmChatCompletions',
						typeVersion: 1.1,
						position: [260, 220],
						// The service waits 5 s before it answers (a knob of the local service); Timeout is 500 ms.
						parameters: {
							model: { __rl: true, mode: 'id', value: 'echo-1' },
							options: {
								timeout: 500,
								extraBody: JSON.stringify({ x_local: { stall_headers_ms: 5000 } }),
							},
						},
						credentials: { chatCompletionsApi: { id: credential.id, name: credential.name } },
					},
				],
				connections: {
					...toAgent,
					[MODEL_NAME]: {
						ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
					},
				},
				settings: { executionOrder: 'v1' },
			},
			{
				id: WORKFLOW,
				name: 'Chat Model in the editor',
				nodes: agentNodes('editor'),
				connections: toAgent,
				settings: { executionOrder: 'v1' },
			},
		],
	};
});
const page = useBrowser(() => n8n().url);

test("from the AI Agent's Chat Model input: found under Language Models, attached, the key's models listed", async () => {
	const p = page();
	await p.goto(`${n8n().url}/workflow/${WORKFLOW}`);
	// The nodes panel lists community nodes once the editor has loaded every node type.
	await p.waitForLoadState('networkidle');
	await p
		.locator(
			'[data-test-id="canvas-node-input-handle"][data-connection-type="ai_languageModel"][data-node-name="AI Agent"] [data-test-id="canvas-handle-plus"]',
		)
		.first()
		.click();
	const creator = p.getByTestId('node-creator');
	await creator.getByText('Language Models').first().waitFor({ timeout: 15_000 });
	const item = creator.getByTestId('node-creator-item-name').getByText(MODEL_NAME, { exact: true });
	// The list shows what is in view: scrolled down until the node is there (it comes after n8n's own).
	await creator.getByTestId('node-creator-item-name').first().hover();
	for (let step = 0; step < 40 && (await item.count()) === 0; step++) {
		await p.mouse.wheel(0, 300);
		await p.waitForTimeout(150);
	}
	await item.scrollIntoViewIfNeeded({ timeout: 5000 });
	const panel = await screenshot(p, screenshots, 'chat-model-nodes-panel', creator);
	expect(panel).toMatch(/^Language Models[\s\S]*Chat Completions Chat Model/);
	await item.click();
	// n8n shows a community node's details first: "Add to workflow" adds it, attached to the agent.
	const details = await screenshot(p, screenshots, 'chat-model-node-details', creator);
	expect(details).toContain('Installed');
	await creator.getByText('Add to workflow').click();

	const ndv = p.getByTestId('ndv');
	await ndv.waitFor();
	// The one credential of its type is selected by n8n; the list comes from GET /models with it.
	await ndv.getByTestId('rlc-input').click();
	const items = p.getByTestId('rlc-item');
	await items.first().waitFor({ timeout: 15_000 });
	expect(await items.allInnerTexts()).toEqual(DEFAULT_KEY_MODELS);
	const shown = await screenshot(p, screenshots, 'chat-model-node-panel', p.locator('body'));
	for (const text of [MODEL_NAME, 'Credential', ...DEFAULT_KEY_MODELS])
		expect(shown).toContain(text);
	await items.filter({ hasText: /^tools-1$/ }).click();
	await p.keyboard.press('Escape');

	await p.locator(`[data-test-id="canvas-node"][data-node-name="${MODEL_NAME}"]`).waitFor();
	const saved = p.waitForResponse(
		(response) =>
			response.url().includes(`/rest/workflows/${WORKFLOW}`) &&
			response.request().method() === 'PATCH',
	);
	await p.keyboard.press('Control+s');
	expect((await saved).ok()).toBe(true);
	await screenshot(p, screenshots, 'chat-model-canvas', p.locator('body'));

	// What n8n saved: the model node with the key's model, connected to the agent's Chat Model input.
	const rest = await N8nRest.login(n8n().url, OWNER);
	const cookie = (rest as unknown as { cookie: string }).cookie;
	const workflow = (
		(await (
			await fetch(`${n8n().url}/rest/workflows/${WORKFLOW}`, { headers: { cookie } })
		).json()) as {
			data: {
				nodes: Array<{
					name: string;
					type: string;
					parameters: Record<string, unknown>;
					credentials?: unknown;
				}>;
				connections: Record<string, unknown>;
			};
		}
	).data;
	const model = workflow.nodes.find((node) => node.name === MODEL_NAME);
	expect(model).toMatchObject({
		type: 'n8n-nodes-chat-completions.lmChatCompletions',
		parameters: { model: { __rl: true, mode: 'list', value: 'tools-1' } },
		credentials: { chatCompletionsApi: { id: n8n().credentialId('local-chat-completions') } },
	});
	expect(workflow.connections[MODEL_NAME]).toEqual({
		ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
	});
});

/** How often `part` occurs in `text`. */
const occurrences = (text: string, part: string) => text.split(part).length - 1;

test("a Chat Model slower than Timeout: the toast and the AI Agent's error panel show its message once, with the URL and the fix", async () => {
	const p = page();
	const message = `The service at ${service().baseUrl}/chat/completions did not answer within the Timeout of 500 ms. Raise Options > Timeout (Ms) above 500`;
	await p.goto(`${n8n().url}/workflow/${FAILING}`);
	await p.getByTestId('execute-workflow-button').click();
	const toast = p.locator('.el-notification').first();
	await toast.waitFor({ timeout: 30_000 });
	const toastText = await screenshot(p, screenshots, 'chat-model-error-toast', toast);
	expect(toastText).toContain(message);
	expect(occurrences(toastText, 'did not answer')).toBe(1);
	expect(toastText).not.toMatch(/connection was aborted|perhaps/i);

	await p.locator('[data-test-id="canvas-node"][data-node-name="AI Agent"]').dblclick();
	const ndv = p.getByTestId('ndv');
	// The agent's error, above the log of its run (where the Chat Model's own entry shows the same failure).
	const headline = ndv.getByTestId('node-error-message').first();
	await headline.waitFor({ timeout: 15_000 });
	expect(await headline.innerText()).toContain(message);
	const description = await ndv.getByTestId('node-error-description').first().innerText();
	expect(description).not.toContain('did not answer');
	expect(description).toMatch(/^\(network error [A-Z_]+\)$/);
	const panel = await screenshot(p, screenshots, 'chat-model-error-panel', ndv);
	expect(panel).not.toMatch(/connection was aborted|perhaps/i);
});
