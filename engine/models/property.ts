import type { INodeProperties } from 'n8n-workflow';

export const modelProperty: INodeProperties = {
	displayName: 'Model',
	name: 'model',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The model that answers. The list shows exactly the models your API key may call.',
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
