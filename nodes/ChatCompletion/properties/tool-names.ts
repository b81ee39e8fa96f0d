import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { values } from '../../../engine';

/** The names of the functions the node's Tools define (rows or a JSON tools array), in order, each once. */
export function definedToolNames(mode: unknown, rows: unknown, toolsJson: unknown): string[] {
	let names: unknown[] = [];
	if (mode === 'define' && values.isPlainObject(rows) && Array.isArray(rows.values)) {
		names = rows.values.map((row) => (values.isPlainObject(row) ? row.name : undefined));
	} else if (mode === 'json') {
		const parsed = typeof toolsJson === 'string' ? values.tryParseJson(toolsJson) : undefined;
		const tools = parsed?.ok ? parsed.value : toolsJson;
		if (Array.isArray(tools)) {
			names = tools.map((tool) =>
				values.isPlainObject(tool) && values.isPlainObject(tool.function)
					? tool.function.name
					: undefined,
			);
		}
	}
	const typed = names.filter(
		(name): name is string =>
			typeof name === 'string' && name.trim() !== '' && !name.startsWith('='),
	);
	return [...new Set(typed)];
}

/** Function Name or ID's choices: the tools defined above it. */
export async function toolNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return definedToolNames(
		this.getCurrentNodeParameter('toolsMode'),
		this.getCurrentNodeParameter('tools'),
		this.getCurrentNodeParameter('toolsJson'),
	).map((name) => ({ name, value: name }));
}
