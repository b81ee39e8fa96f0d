import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { FIELDS } from '../fields';

/**
 * The image fields of a user message (Simple mode, and user rows of Messages). From node version 1.1 they
 * show only when the Images switch is on, and on rows only for user messages. Version 1 shows them as it
 * always did: n8n drops a parameter the editor hides when it loads a workflow, so a switch that is off by
 * default would silently drop the images of workflows saved before it existed. Each field is therefore
 * declared once per version, with the same name.
 */

type Show = NonNullable<IDisplayOptions['show']>;

/** The switch's name, saved in workflows. */
const IMAGES_SWITCH = 'withImages';

const imageFields: INodeProperties[] = [
	{
		displayName: FIELDS.imageUrls.label,
		name: 'imageUrls',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. https://example.com/cat.png',
		description:
			'Images for the model to look at: public URLs or data URIs (data:image/png;base64,...), one per line',
	},
	{
		displayName: FIELDS.imageBinaryProperties.label,
		name: 'imageBinaryProperties',
		type: 'string',
		default: '',
		placeholder: 'e.g. data',
		description:
			"Names of the input item's binary properties that hold images (e.g. from HTTP Request, Read Files from Disk or a form upload), separated by commas",
	},
	{
		displayName: FIELDS.imageDetail.label,
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

function imagesSwitch(withWhat: string, show: Show): INodeProperties {
	return {
		displayName: FIELDS.withImages.label,
		name: IMAGES_SWITCH,
		type: 'boolean',
		default: false,
		description: `Whether to send images with ${withWhat}: URLs, data URIs or binary data of the input item`,
		displayOptions: { show },
	};
}

const VERSION_1: Show = { '@version': [1] };
const SINCE_1_1: Show = { '@version': [{ _cnd: { gte: 1.1 } }] };

/** Each image field twice: version 1 when `before`, later versions when `asked`. */
function perVersion(before: Show, asked: Show): INodeProperties[] {
	return imageFields.flatMap((field) => [
		{ ...field, displayOptions: { show: { ...VERSION_1, ...before } } },
		{ ...field, displayOptions: { show: { ...SINCE_1_1, ...asked } } },
	]);
}

/** Simple mode: the switch, and the image fields while it is on. */
export const simpleImageProperties: INodeProperties[] = [
	imagesSwitch('the user prompt', { ...SINCE_1_1, promptType: ['simple'] }),
	...perVersion({ promptType: ['simple'] }, { promptType: ['simple'], [IMAGES_SWITCH]: [true] }),
];

/** A row of Messages: the switch on user rows, and the image fields on user rows while it is on. */
export const rowImageProperties: INodeProperties[] = [
	imagesSwitch('this message', { ...SINCE_1_1, role: ['user'] }),
	...perVersion({}, { role: ['user'], [IMAGES_SWITCH]: [true] }),
];
