/**
 * The node's panel in Chromium, mode by mode: which fields the editor shows (image fields only when the
 * Images switch is on, and only on user rows; the file field when the Files switch is on; tool results only with tools, below them; one "Tools"
 * label; Function Name a choice of the defined tools; Response Format's schema editor right below it once
 * JSON Schema is chosen, in the node and the Chat Model; Options listed with what users change most first,
 * Concurrency saying what 0 means), and that workflows saved as node version 1 and 1.1 still show their
 * fields where they were. Screenshots go to .cache/e2e/screenshots/editor-*.png, each checked against the
 * text the panel showed when it was taken.
 */
import { resolve } from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { OPTIONS } from '../../engine/options/table';
import { CHAT_COMPLETION_OPTIONS } from '../../nodes/ChatCompletion/properties/options';
import { keys, useLocalService } from '../support/service.cts';
import { screenshot, useBrowser } from './support/browser.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { CHAT_NODE_TYPE } from '../../dev/n8n/workflows.cts';

const screenshots = resolve(__dirname, '..', '..', '.cache', 'e2e', 'screenshots');
const credential = { id: 'e2e-editor-credential', name: 'Local service (editor test)' };
const IMAGE_FIELDS = ['imageUrls', 'imageBinaryProperties', 'imageDetail'];
const TOOL_RESULT_FIELDS = ['toolCallId', 'toolResult'];
const RESPONSE_FORMAT_FIELDS = ['responseFormat', 'jsonSchema', 'strictSchema', 'repairAttempts'];
const MODEL_NAME = 'Chat Completions Chat Model';

const tool = (name: string, description: string) => ({
	name,
	description,
	parameters: JSON.stringify({
		type: 'object',
		properties: { city: { type: 'string' } },
		required: ['city'],
	}),
});

/** A workflow of a manual trigger and one Chat Completion node with `parameters`. */
function workflow(id: string, parameters: Record<string, unknown>, typeVersion = 1.2) {
	return {
		id,
		name: `Editor: ${id}`,
		nodes: [
			{
				id: `${id}-start`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: `${id}-chat`,
				name: 'Chat Completion',
				type: CHAT_NODE_TYPE,
				typeVersion,
				position: [240, 0],
				parameters: { model: { __rl: true, mode: 'id', value: 'echo-1' }, ...parameters },
				credentials: { chatCompletionsApi: credential },
			},
		],
		connections: { Start: { main: [[{ node: 'Chat Completion', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const service = useLocalService();
const n8n = useRealN8n(() => ({
	credentials: [
		{
			...credential,
			type: 'chatCompletionsApi',
			data: { apiKey: keys.default, baseUrl: service().baseUrl },
		},
	],
	workflows: [
		workflow('editor-simple', { promptType: 'simple', prompt: 'Hello' }),
		workflow('editor-messages', {
			promptType: 'messages',
			messages: {
				values: Object.entries({
					system: 'Be brief.',
					user: 'What is in the picture?',
					assistant: 'A cat.',
				}).map(([role, content]) => ({ role, content })),
			},
		}),
		workflow('editor-json', { promptType: 'json' }),
		workflow('editor-json-tools', {
			promptType: 'json',
			toolsMode: 'define',
			tools: { values: [tool('weather', 'Weather in a city'), tool('time', 'Time in a city')] },
			toolChoice: 'function',
		}),
		workflow(
			'editor-version-1',
			{ promptType: 'simple', prompt: 'What is this?', imageUrls: 'https://example.com/cat.png' },
			1,
		),
		workflow(
			'editor-version-1-1',
			{ promptType: 'simple', prompt: 'Hello', options: { temperature: 0.5 } },
			1.1,
		),
		{
			id: 'editor-chat-model',
			name: 'Editor: the Chat Model',
			nodes: [
				{
					id: 'editor-chat-model-node',
					name: MODEL_NAME,
					type: 'n8n-nodes-chat-completions.lmChatCompletions',
					typeVersion: 1.1,
					position: [0, 0],
					parameters: { model: { __rl: true, mode: 'id', value: 'json-1' }, options: {} },
					credentials: { chatCompletionsApi: credential },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
	],
}));
const page = useBrowser(() => n8n().url);

/** Opens the node `name` of workflow `id`; returns its panel. */
async function openNode(p: Page, id: string, name = 'Chat Completion'): Promise<Locator> {
	await p.goto(`${n8n().url}/workflow/${id}`);
	await p.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).dblclick();
	const ndv = p.getByTestId('ndv');
	await ndv.getByTestId('parameter-input-model').first().waitFor();
	return ndv;
}

/** Opens the node of workflow `id`: the page, its panel and the names of the fields it shows. */
async function panel(id: string, name?: string) {
	const p = page();
	const ndv = await openNode(p, id, name);
	return { p, ndv, shown: await fields(ndv) };
}

/** The names of the fields the panel shows, in order (a field on several rows once per row). */
async function fields(ndv: Locator): Promise<string[]> {
	const ids = await ndv
		.locator('[data-test-id^="parameter-input-"]:visible')
		.evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-test-id') ?? ''));
	return ids
		.map((id) => id.replace(/^parameter-input-/, ''))
		.filter((name) => !['field', 'item', 'hint'].includes(name));
}

/** What the panel's text boxes hold (their values are no page text). */
async function texts(ndv: Locator): Promise<string[]> {
	return await ndv
		.locator('textarea:visible')
		.evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value));
}

/** The visible labels of the panel's fields. */
async function labels(ndv: Locator): Promise<string[]> {
	return await ndv
		.locator('[data-test-id="parameter-input-label"]:visible, label:visible')
		.allInnerTexts();
}

test('Simple: no image or file field until its switch is on; Files after the image fields', async () => {
	const { p, ndv, shown: before } = await panel('editor-simple');
	expect(before).toContain('withImages');
	expect(before.filter((name) => IMAGE_FIELDS.includes(name))).toEqual([]);
	expect(before).toContain('withFiles');
	expect(before).not.toContain('fileBinaryProperties');
	expect(await screenshot(p, screenshots, 'editor-simple', ndv)).toContain('Images');

	await ndv.getByTestId('parameter-input-withImages').locator('.el-switch').click();
	await ndv.getByTestId('parameter-input-imageUrls').waitFor();
	expect((await fields(ndv)).filter((name) => IMAGE_FIELDS.includes(name))).toEqual(IMAGE_FIELDS);
	const shown = await screenshot(p, screenshots, 'editor-simple-images', ndv);
	for (const text of ['Image URLs', 'Image Binary Properties', 'Image Detail'])
		expect(shown).toContain(text);

	await ndv.getByTestId('parameter-input-withFiles').locator('.el-switch').click();
	await ndv.getByTestId('parameter-input-fileBinaryProperties').waitFor();
	const after = await fields(ndv);
	expect(after.slice(after.indexOf('imageDetail') + 1, after.indexOf('imageDetail') + 3)).toEqual([
		'withFiles',
		'fileBinaryProperties',
	]);
	expect(await screenshot(p, screenshots, 'editor-simple-files', ndv)).toContain(
		'File Binary Properties',
	);
});

test('Messages: an Images switch on the user row only, no image field on system or assistant rows; Reasoning on the assistant row only', async () => {
	const { p, ndv, shown } = await panel('editor-messages');
	expect(shown.filter((name) => name === 'role')).toHaveLength(3);
	expect(shown.filter((name) => name === 'withImages')).toHaveLength(1);
	expect(shown.filter((name) => name === 'reasoning' || name === 'reasoningField')).toEqual([
		'reasoning',
		'reasoningField',
	]);
	expect(shown.indexOf('reasoning')).toBeGreaterThan(shown.lastIndexOf('role'));
	expect(shown.filter((name) => IMAGE_FIELDS.includes(name))).toEqual([]);
	const text = await screenshot(p, screenshots, 'editor-messages', ndv);
	expect(text).toContain('Images');
	expect(text).not.toContain('Image URLs');
	expect(await texts(ndv)).toEqual(
		expect.arrayContaining(['Be brief.', 'What is in the picture?', 'A cat.']),
	);
});

test('JSON with Tools None: no tool-result fields and no notice', async () => {
	const { p, ndv, shown } = await panel('editor-json');
	expect(shown).toContain('messagesJson');
	expect(shown.filter((name) => TOOL_RESULT_FIELDS.includes(name))).toEqual([]);
	const text = await screenshot(p, screenshots, 'editor-json', ndv);
	expect(text).not.toContain('Tool Call ID');
	expect(text).not.toContain("When a conversation ends with the model's tool calls");
});

test('JSON with tools: the tool-result fields below Tools, one "Tools" label, Function Name a choice of the tools', async () => {
	const { p, ndv, shown } = await panel('editor-json-tools');
	expect(shown.indexOf('toolCallId')).toBeGreaterThan(shown.indexOf('toolsMode'));
	expect(shown.indexOf('toolCallId')).toBeGreaterThan(shown.indexOf('toolChoiceFunction'));
	expect(shown.filter((name) => TOOL_RESULT_FIELDS.includes(name))).toEqual(TOOL_RESULT_FIELDS);
	expect((await labels(ndv)).filter((label) => label.trim() === 'Tools')).toHaveLength(1);

	await ndv.getByTestId('parameter-input-toolChoiceFunction').click();
	const choices = p.locator('.el-select-dropdown__item:visible');
	await choices.first().waitFor();
	expect(await choices.allInnerTexts()).toEqual(['weather', 'time']);
	const text = await screenshot(p, screenshots, 'editor-json-tools', p.locator('body'));
	for (const expected of [
		'Functions',
		'Function Name or ID',
		'Tool Call ID',
		'Tool Result',
		'weather',
		'time',
	])
		expect(text).toContain(expected);
});

test('a workflow saved as node version 1 still shows its images, without the switch', async () => {
	const { p, ndv, shown } = await panel('editor-version-1');
	expect(shown).not.toContain('withImages');
	expect(shown.filter((name) => IMAGE_FIELDS.includes(name))).toEqual(IMAGE_FIELDS);
	expect(await screenshot(p, screenshots, 'editor-version-1', ndv)).toContain('Image URLs');
	expect(await texts(ndv)).toContain('https://example.com/cat.png');
});

/** Chooses `choice` in the drop-down field `name`. */
async function choose(p: Page, ndv: Locator, name: string, choice: string): Promise<void> {
	await ndv.getByTestId(`parameter-input-${name}`).click();
	await p.locator('.el-select-dropdown__item:visible').filter({ hasText: choice }).first().click();
}

/** Opens Options' "Add Option" list; returns the page's text while it is open and the options it lists. */
async function optionsList(
	p: Page,
	ndv: Locator,
	shot: string,
): Promise<{ listed: string[]; text: string }> {
	await ndv.getByTestId('collection-parameter-add').click();
	const items = p.getByTestId('collection-parameter-option').filter({ visible: true });
	await items.first().waitFor();
	await p.waitForTimeout(500); // the list fades in
	const listed = (await items.allInnerTexts()).map((text) => text.trim().split('\n')[0]);
	return { listed, text: await screenshot(p, screenshots, shot, p.locator('body')) };
}

/** The labels of the table's options the node lists, in the table's order (what the unit test fixes). */
/** The labels of Chat Completion's Options (the table's, but the embeddings sub-node's own), but `exclude`. */
/** The options Add Option lists: not those in `exclude`, nor those shown only once another option is set (`showWhen`). */
const labelsOf = (exclude: string[]) =>
	OPTIONS.filter(
		(spec) =>
			CHAT_COMPLETION_OPTIONS.includes(spec.name) &&
			!exclude.includes(spec.name) &&
			!('showWhen' in spec),
	).map((spec) => spec.label);

test('Response Format: choosing JSON Schema shows its schema editor right below, then Strict Schema and Repair Attempts', async () => {
	const { p, ndv, shown: before } = await panel('editor-simple');
	expect(before).toContain('responseFormat');
	expect(before.filter((name) => RESPONSE_FORMAT_FIELDS.includes(name))).toEqual([
		'responseFormat',
	]);

	await choose(p, ndv, 'responseFormat', 'JSON Schema');
	await ndv.getByTestId('parameter-input-jsonSchema').waitFor();
	const after = await fields(ndv);
	const at = after.indexOf('responseFormat');
	expect(after.slice(at, at + 4)).toEqual(RESPONSE_FORMAT_FIELDS);
	await ndv.getByTestId('parameter-input-repairAttempts').scrollIntoViewIfNeeded();
	await p.waitForTimeout(500); // the choices fade out
	const text = await screenshot(p, screenshots, 'editor-response-format', ndv);
	for (const label of ['Response Format', 'JSON Schema', 'Strict Schema', 'Repair Attempts'])
		expect(text).toContain(label);
	const schema = await ndv
		.getByTestId('parameter-input-jsonSchema')
		.locator('.cm-content')
		.innerText();
	expect(schema).toContain('"required": ["name", "age"]');
});

test('Options: what users change most first, Response Format no longer among them; Concurrency says 0 = Auto', async () => {
	const { p, ndv } = await panel('editor-simple');
	const { listed } = await optionsList(p, ndv, 'editor-options-list');
	expect(listed).toEqual(labelsOf(RESPONSE_FORMAT_FIELDS));
	expect(listed.slice(0, 4)).toEqual(['Temperature', 'Top P', 'Maximum Tokens', 'Stream']);

	await p
		.getByTestId('collection-parameter-option')
		.filter({ hasText: 'Concurrency' })
		.first()
		.click();
	await ndv.getByTestId('parameter-input-concurrency').waitFor();
	await p.waitForTimeout(500);
	expect(await screenshot(p, screenshots, 'editor-options-concurrency', ndv)).toContain('0 = Auto');
});

test('a workflow saved as node version 1.1 keeps Response Format in Options, after Top P and Maximum Tokens', async () => {
	const { p, ndv, shown } = await panel('editor-version-1-1');
	expect(shown.filter((name) => RESPONSE_FORMAT_FIELDS.includes(name))).toEqual([]);
	const { listed, text } = await optionsList(p, ndv, 'editor-version-1-1-options');
	expect(listed).toEqual(labelsOf(['temperature', 'jsonSchema', 'strictSchema', 'repairAttempts']));
	expect(listed.slice(0, 3)).toEqual(['Top P', 'Maximum Tokens', 'Response Format']);
	expect(text).toContain('Response Format');
});

test('the Chat Model: Response Format with its schema editor below Model; Options with what users change most first', async () => {
	const { p, ndv, shown } = await panel('editor-chat-model', MODEL_NAME);
	expect(shown.filter((name) => RESPONSE_FORMAT_FIELDS.includes(name))).toEqual(['responseFormat']);
	await choose(p, ndv, 'responseFormat', 'JSON Schema');
	await ndv.getByTestId('parameter-input-jsonSchema').waitFor();
	const after = await fields(ndv);
	expect(after.slice(after.indexOf('responseFormat'), after.indexOf('responseFormat') + 4)).toEqual(
		RESPONSE_FORMAT_FIELDS,
	);
	expect(await screenshot(p, screenshots, 'editor-chat-model-response-format', ndv)).toContain(
		'JSON Schema',
	);

	const { listed } = await optionsList(p, ndv, 'editor-chat-model-options');
	expect(listed.slice(0, 4)).toEqual([
		'Temperature',
		'Top P',
		'Maximum Tokens',
		'Reasoning Effort',
	]);
	expect(listed.at(-6)).toBe('Stream Usage');
	expect(listed).not.toContain('Response Format');
	expect(listed).not.toContain('Concurrency');
});
