import type { INodeProperties } from 'n8n-workflow';

/** Image fields of a user message, used in Simple mode and on message rows. */
export const imageFields: INodeProperties[] = [
	{
		displayName: 'Image URLs',
		name: 'imageUrls',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. https://example.com/cat.png',
		description:
			'Images for the model to look at (user messages only): public URLs or data URIs (data:image/png;base64,...), one per line',
	},
	{
		displayName: 'Image Binary Properties',
		name: 'imageBinaryProperties',
		type: 'string',
		default: '',
		placeholder: 'e.g. data',
		description:
			"Names of the input item's binary properties that hold images (e.g. from HTTP Request, Read Files from Disk or a form upload), separated by commas",
	},
	{
		displayName: 'Image Detail',
		name: 'imageDetail',
		type: 'options',
		default: 'auto',
		description:
			'How closely the model looks at the images; Auto sends nothing and lets the model decide',
		options: [
			{ name: 'Auto', value: 'auto' },
			{ name: 'High', value: 'high' },
			{ name: 'Low', value: 'low' },
		],
	},
];
