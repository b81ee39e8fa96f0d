import type { INodeProperties } from 'n8n-workflow';

import { InputError } from '../failures/errors';
import { describe } from '../values';

/** The Model field: a model from the key's list, or an ID typed. */
export const modelProperty: INodeProperties = {
	displayName: 'Model',
	name: 'model',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The model that answers. The list shows the chat models your API key may call (and those whose kind the gateway does not tell), with their prices and context where the gateway tells them.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a model...',
			typeOptions: {
				searchListMethod: 'searchModels',
				searchable: true,
			},
		},
		{
			displayName: 'ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. gpt-4o-mini',
		},
	],
};

/** The Model field's ID, trimmed: not empty, no spaces. */
export function checkModel(value: unknown): string {
	const model = typeof value === 'string' ? value.trim() : '';
	if (model === '') {
		throw new InputError(
			modelProperty.displayName,
			value === '' || value === undefined || value === null
				? 'is empty'
				: `must be text, got ${describe(value)}`,
			'Choose a model from the list, or switch to "ID" and type the model ID.',
		);
	}
	if (/\s/.test(model)) {
		throw new InputError(
			modelProperty.displayName,
			`"${model}" contains spaces`,
			'Model IDs have no spaces: check the ID in the list.',
		);
	}
	return model;
}
