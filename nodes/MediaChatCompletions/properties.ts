import type { INodeProperties } from 'n8n-workflow';

import type { OptionName } from '../../engine';
import { endpointDescriptions, media, modelProperty, optionsCollection } from '../../engine';

/** The operations of each resource: the values of n8n's OpenAI node, so users find the actions they know. */
export const OPERATIONS = {
	image: { generate: 'generate', edit: 'edit' },
	audio: { transcribe: 'transcribe', translate: 'translate', generate: 'speak' },
} as const satisfies Record<string, Record<string, media.MediaOperation>>;

export type Resource = keyof typeof OPERATIONS;

/** Shown for the given operations of a resource (Account's too). */
const showFor = (resource: Resource | 'account', operations: readonly string[]) => ({
	displayOptions: { show: { resource: [resource], operation: [...operations] } },
});

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'Audio', value: 'audio' },
		{ name: 'Image', value: 'image' },
	],
	default: 'image',
};

const accountOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['account'] } },
	options: [
		{
			name: 'Get Balance',
			value: 'getBalance',
			action: 'Get the balance',
			description:
				'What the API key has left to spend, as the gateway tells it (OpenRouter, new-api, one-api, LiteLLM)',
		},
	],
	default: 'getBalance',
};

const imageOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['image'] } },
	options: [
		{
			name: 'Edit an Image',
			value: 'edit',
			action: 'Edit an image',
			description: 'Change images by a prompt (POST /images/edits)',
		},
		{
			name: 'Generate an Image',
			value: 'generate',
			action: 'Generate an image',
			description: 'Make images from a prompt (POST /images/generations)',
		},
	],
	default: 'generate',
};

const audioOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['audio'] } },
	options: [
		{
			name: 'Generate Audio',
			value: 'generate',
			action: 'Generate audio',
			description: 'Speak a text with a voice (POST /audio/speech)',
		},
		{
			name: 'Transcribe a Recording',
			value: 'transcribe',
			action: 'Transcribe a recording',
			description: 'Write down what a recording says (POST /audio/transcriptions)',
		},
		{
			name: 'Translate a Recording',
			value: 'translate',
			action: 'Translate a recording',
			description: 'Write down what a recording says, in English (POST /audio/translations)',
		},
	],
	default: 'transcribe',
};

const mediaModelProperty: INodeProperties = {
	...modelProperty,
	displayOptions: { hide: { resource: ['account'] } },
	description:
		'The model. The list shows every model your API key may call: pick one that does what the operation asks (an image, transcription or voice model).',
};

const promptProperty: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	required: true,
	placeholder: 'e.g. A watercolour fox in the snow',
	description: 'What the image shows, or what to change in it',
	...showFor('image', ['generate', 'edit']),
};

const binaryProperty: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	placeholder: 'e.g. data',
	hint: 'The name of the binary field that holds the recording',
	description: 'The binary field of the item that holds the recording',
	...showFor('audio', ['transcribe', 'translate']),
};

const imagesProperty: INodeProperties = {
	...binaryProperty,
	hint: 'The names of the binary fields of the images, separated by commas, in order',
	description:
		'The binary fields of the item that hold the images to edit: one, or several separated by commas (sent in that order)',
	...showFor('image', ['edit']),
};

const inputProperty: INodeProperties = {
	displayName: 'Text Input',
	name: 'input',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	required: true,
	placeholder: 'e.g. Your order has shipped.',
	description: 'The text to speak',
	...showFor('audio', ['generate']),
};

const voiceProperty: INodeProperties = {
	displayName: 'Voice',
	name: 'voice',
	type: 'string',
	default: 'alloy',
	required: true,
	placeholder: 'e.g. alloy',
	description:
		"The voice, as the model names it: alloy, coral, nova, ... (OpenAI), af_heart (Kokoro). Voices depend on the model: see the service's list.",
	...showFor('audio', ['generate']),
};

/** The package's request options every operation has. */
export const REQUEST_OPTIONS: readonly OptionName[] = [
	'timeout',
	'maxRetries',
	'maxRetryWait',
	'maxRateLimitWait',
	'extraBody',
];

/** Timeout and Extra Body in the words of a node without streams (in a multipart request a field is text). */
const DESCRIPTIONS = endpointDescriptions(
	'{"background": "transparent"} (gpt-image; in a multipart request each field is sent as text)',
);

/** Get Balance's Options: the request options but Extra Body (a GET sends no body). */
const BALANCE_OPTIONS = REQUEST_OPTIONS.filter((name) => name !== 'extraBody');

/** The Options of one operation: its own, then the request options. */
function optionsFor(resource: Resource, value: string): INodeProperties {
	const operation = (OPERATIONS[resource] as Record<string, media.MediaOperation>)[value];
	return {
		...optionsCollection(REQUEST_OPTIONS, undefined, media.MEDIA_OPTIONS[operation], DESCRIPTIONS),
		...showFor(resource, [value]),
	};
}

export const mediaProperties: INodeProperties[] = [
	resourceProperty,
	accountOperation,
	imageOperation,
	audioOperation,
	mediaModelProperty,
	promptProperty,
	imagesProperty,
	binaryProperty,
	inputProperty,
	voiceProperty,
	...Object.entries(OPERATIONS).flatMap(([resource, operations]) =>
		Object.keys(operations).map((value) => optionsFor(resource as Resource, value)),
	),
	{
		...optionsCollection(BALANCE_OPTIONS, undefined, [], DESCRIPTIONS),
		...showFor('account', ['getBalance']),
	},
];
