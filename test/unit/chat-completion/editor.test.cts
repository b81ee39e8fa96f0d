/**
 * Which fields the editor shows, decided by n8n's own display rules (NodeHelpers, which the editor and
 * the workflow loader use) on the node's description; and what a saved workflow keeps when n8n loads it
 * (a hidden parameter is dropped). The editor itself is checked in Chromium (test/e2e/editor.test.cts).
 */
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ChatCompletion } from '../../../nodes/ChatCompletion/ChatCompletion.node';
import { definedToolNames } from '../../../nodes/ChatCompletion/properties/tool-names';

const description = new ChatCompletion().description;
const latest = { typeVersion: 1.2 } as INode;
const version11 = { typeVersion: 1.1 } as INode;
const version1 = { typeVersion: 1 } as INode;

/** The parameters n8n keeps when it loads `saved` (defaults filled in, hidden ones dropped), as the editor does. */
function loaded(saved: INodeParameters, node = latest): INodeParameters {
	return NodeHelpers.getNodeParameters(
		description.properties,
		saved,
		true,
		false,
		node,
		description,
	) as INodeParameters;
}

/** The names of the top-level fields shown for `saved`, in the order the editor lists them. */
function shown(saved: INodeParameters, node = latest): string[] {
	const values = loaded(saved, node);
	return description.properties
		.filter((property) => NodeHelpers.displayParameter(values, property, node, description, values))
		.map((property) => property.name);
}

const rowProperties = (
	description.properties.find((property) => property.name === 'messages')?.options?.[0] as {
		values: INodeProperties[];
	}
).values;

/** The fields shown on one Messages row, and what n8n keeps of it when it loads the workflow. */
function row(saved: INodeParameters, node = latest): { shows: string[]; kept: INodeParameters } {
	const [kept] = (
		loaded({ promptType: 'messages', messages: { values: [saved] } }, node).messages as {
			values: INodeParameters[];
		}
	).values;
	const shows = rowProperties
		.filter((property) => NodeHelpers.displayParameter(kept, property, node, description, kept))
		.map((property) => property.name);
	return { shows, kept };
}
const rowShows = (saved: INodeParameters) => row(saved).shows;

const IMAGE_FIELDS = ['imageUrls', 'imageBinaryProperties', 'imageDetail'];

describe('image fields only when asked for, and only for user messages', () => {
	test('new nodes are version 1.2, a version with the switch', () => {
		expect(description.version).toEqual([1, 1.1, 1.2]);
		expect(description.defaultVersion).toBe(1.2);
		expect(shown({ promptType: 'simple' }, version11)).toContain('withImages');
	});

	test('Simple: the Images switch, no image field until it is on', () => {
		const fields = shown({ promptType: 'simple' });
		expect(fields).toContain('withImages');
		expect(fields.filter((name) => IMAGE_FIELDS.includes(name))).toEqual([]);
		expect(
			shown({ promptType: 'simple', withImages: true }).filter((name) =>
				IMAGE_FIELDS.includes(name),
			),
		).toEqual(IMAGE_FIELDS);
	});

	test('Messages: system and assistant rows have no image fields (assistant rows: Reasoning and its field); user rows a switch', () => {
		expect(rowShows({ role: 'system', content: 'Be brief.' })).toEqual(['role', 'content']);
		expect(rowShows({ role: 'assistant', content: 'Hi' })).toEqual([
			'role',
			'content',
			'reasoning',
			'reasoningField',
		]);
		expect(rowShows({ role: 'user', content: 'Hi' })).toEqual([
			'role',
			'content',
			'withImages',
			'withFiles',
		]);
		expect(rowShows({ role: 'user', content: 'Hi', withImages: true })).toEqual([
			'role',
			'content',
			'withImages',
			...IMAGE_FIELDS,
			'withFiles',
		]);
	});

	test('version 1.1 with the switch off sends no image: n8n drops the hidden fields', () => {
		expect(
			loaded({ promptType: 'simple', imageUrls: 'https://example.com/cat.png' }),
		).not.toHaveProperty('imageUrls');
		expect(
			loaded({ promptType: 'simple', withImages: true, imageUrls: 'https://example.com/cat.png' }),
		).toMatchObject({
			imageUrls: 'https://example.com/cat.png',
		});
		expect(
			row({
				role: 'system',
				content: 'Hi',
				withImages: true,
				imageUrls: 'https://example.com/a.png',
			}).kept,
		).not.toHaveProperty('imageUrls');
	});

	test('a workflow saved as version 1 (before the switch) keeps its images: shown and loaded as before, so they are sent', () => {
		const saved = {
			promptType: 'simple',
			prompt: 'What is this?',
			imageUrls: 'https://example.com/cat.png',
			imageDetail: 'high',
		};
		expect(loaded(saved, version1)).toMatchObject({
			imageUrls: 'https://example.com/cat.png',
			imageDetail: 'high',
		});
		expect(shown(saved, version1)).not.toContain('withImages');
		expect(shown(saved, version1).filter((name) => IMAGE_FIELDS.includes(name))).toEqual(
			IMAGE_FIELDS,
		);
		const rowV1 = row(
			{ role: 'user', content: 'Which format?', imageBinaryProperties: 'data' },
			version1,
		);
		expect(rowV1.kept).toMatchObject({ imageBinaryProperties: 'data' });
		expect(rowV1.shows).toEqual(['role', 'content', ...IMAGE_FIELDS, 'withFiles']);
	});
});

describe('file fields behind their own switch, after the image fields, for user messages, in every version', () => {
	test('Simple: the Files switch after the image fields; File Binary Properties only while it is on', () => {
		for (const node of [latest, version11, version1]) {
			const fields = shown({ promptType: 'simple' }, node);
			expect(fields).toContain('withFiles');
			expect(fields).not.toContain('fileBinaryProperties');
			const on = shown({ promptType: 'simple', withImages: true, withFiles: true }, node);
			expect(on.slice(on.indexOf('imageDetail') + 1, on.indexOf('imageDetail') + 3)).toEqual([
				'withFiles',
				'fileBinaryProperties',
			]);
		}
	});

	test('rows: a user row shows File Binary Properties while its switch is on; n8n drops it elsewhere', () => {
		expect(rowShows({ role: 'user', content: 'Hi', withFiles: true })).toEqual([
			'role',
			'content',
			'withImages',
			'withFiles',
			'fileBinaryProperties',
		]);
		expect(
			row({ role: 'assistant', content: 'Hi', withFiles: true, fileBinaryProperties: 'data' }).kept,
		).not.toHaveProperty('fileBinaryProperties');
		expect(loaded({ promptType: 'simple', fileBinaryProperties: 'data' })).not.toHaveProperty(
			'fileBinaryProperties',
		);
	});
});

describe('tools', () => {
	test('the tool-result fields only in JSON mode with tools, and below Tools', () => {
		const withoutTools = shown({ promptType: 'json' });
		expect(withoutTools).not.toEqual(expect.arrayContaining(['toolCallId']));
		expect(
			withoutTools.filter((name) =>
				['toolResultsNotice', 'toolCallId', 'toolResult'].includes(name),
			),
		).toEqual([]);
		for (const toolsMode of ['define', 'json']) {
			const fields = shown({ promptType: 'json', toolsMode });
			expect(fields.indexOf('toolCallId')).toBeGreaterThan(fields.indexOf('toolsMode'));
			expect(
				fields.filter((name) => ['toolResultsNotice', 'toolCallId', 'toolResult'].includes(name)),
			).toEqual(['toolResultsNotice', 'toolCallId', 'toolResult']);
		}
		expect(shown({ promptType: 'simple', toolsMode: 'define' })).not.toContain('toolCallId');
	});

	test('one field is labelled "Tools"', () => {
		const labels = shown({ promptType: 'simple', toolsMode: 'define' }).map(
			(name) => description.properties.find((property) => property.name === name)?.displayName,
		);
		expect(labels.filter((label) => label === 'Tools')).toHaveLength(1);
		expect(labels).toContain('Functions');
	});

	test('Function Name or ID is a choice of the tools defined above', () => {
		const field = description.properties.find((property) => property.name === 'toolChoiceFunction');
		expect(field).toMatchObject({
			type: 'options',
			typeOptions: { loadOptionsMethod: 'toolNames' },
		});
		expect(field?.noDataExpression).toBeUndefined();
		expect(
			definedToolNames(
				'define',
				{ values: [{ name: 'weather' }, { name: '' }, { name: 'time' }, { name: 'weather' }] },
				undefined,
			),
		).toEqual(['weather', 'time']);
		expect(
			definedToolNames('json', undefined, '[{"type": "function", "function": {"name": "lookup"}}]'),
		).toEqual(['lookup']);
		expect(definedToolNames('json', undefined, '[{"type": "funct')).toEqual([]);
		expect(
			definedToolNames('define', { values: [{ name: '={{ $json.tool }}' }] }, undefined),
		).toEqual([]);
		expect(definedToolNames('none', { values: [{ name: 'weather' }] }, undefined)).toEqual([]);
	});
});

const RESPONSE_FORMAT_FIELDS = ['responseFormat', 'jsonSchema', 'strictSchema', 'repairAttempts'];

/** The options the Options collection offers for `saved` (the editor's "Add Option" list, before any is added). */
function offered(saved: INodeParameters, node = latest): string[] {
	const values = loaded(saved, node);
	const collection = description.properties.find((property) => property.name === 'options')!;
	return (collection.options as INodeProperties[])
		.filter((option) =>
			NodeHelpers.displayParameterPath(values, option, 'options', node, description),
		)
		.map((option) => option.name);
}

describe('Response Format and its schema editor', () => {
	test('from 1.2 a field below Tools: JSON Schema and Strict Schema right below it for JSON Schema, Repair Attempts for both JSON formats', () => {
		const formatFields = (saved: INodeParameters) =>
			shown({ promptType: 'simple', ...saved }).filter((name) =>
				RESPONSE_FORMAT_FIELDS.includes(name),
			);
		expect(formatFields({})).toEqual(['responseFormat']);
		expect(formatFields({ responseFormat: 'jsonObject' })).toEqual([
			'responseFormat',
			'repairAttempts',
		]);
		expect(formatFields({ responseFormat: 'jsonSchema' })).toEqual(RESPONSE_FORMAT_FIELDS);
		const fields = shown({ promptType: 'simple', responseFormat: 'jsonSchema' });
		expect(fields.indexOf('responseFormat')).toBeGreaterThan(fields.indexOf('toolsMode'));
		expect(
			fields.slice(fields.indexOf('responseFormat'), fields.indexOf('responseFormat') + 4),
		).toEqual(RESPONSE_FORMAT_FIELDS);
		expect(
			offered({ promptType: 'simple' }).filter((name) => RESPONSE_FORMAT_FIELDS.includes(name)),
		).toEqual([]);
	});

	test('a node saved as 1.1 keeps them in Options, and n8n keeps their saved values', () => {
		const saved = {
			promptType: 'simple',
			options: { responseFormat: 'jsonSchema', jsonSchema: '{"type": "object"}' },
		};
		expect(shown(saved, version11).filter((name) => RESPONSE_FORMAT_FIELDS.includes(name))).toEqual(
			[],
		);
		expect(loaded(saved, version11).options).toEqual(saved.options);
		expect(
			offered(saved, version11).filter((name) => RESPONSE_FORMAT_FIELDS.includes(name)),
		).toEqual(RESPONSE_FORMAT_FIELDS);
		expect(offered({ promptType: 'simple' }, version11)).toContain('responseFormat');
	});
});
