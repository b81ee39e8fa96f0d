import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from './actions';
import type { Action } from './actions/item';
import { videoProperties } from './actions/video/properties';
import type { OptionName } from '../../engine';
import { endpointDescriptions, media, modelProperty, optionsCollection } from '../../engine';

export type Resource = Action<media.MediaOperation>['resource'];

const actions = Object.entries(ACTIONS).map(([name, action]) => ({
	name: name as media.MediaOperation,
	...action,
}));

/**
 * The router: the operation of each Resource and Operation value (the values of n8n's OpenAI node, so users
 * find the actions they know), made from the actions.
 */
export const OPERATIONS = Object.fromEntries(
	(['image', 'audio'] as const).map((resource) => [
		resource,
		Object.fromEntries(
			actions
				.filter((action) => action.resource === resource)
				.map((action) => [action.operation.value, action.name]),
		),
	]),
) as Record<Resource, Record<string, media.MediaOperation>>;

/** Shown for one operation of a resource. */
const showFor = (resource: Resource, operation: string) => ({
	displayOptions: { show: { resource: [resource], operation: [operation] } },
});

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Audio', value: 'audio' },
		{ name: 'Image', value: 'image' },
		{ name: 'Video', value: 'video' },
	],
	default: 'image',
};

/** A Resource's Operation: its actions' entries, by name, `first` shown first. */
const operationProperty = (resource: Resource, first: string): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: actions
		.filter((action) => action.resource === resource)
		.map((action) => action.operation)
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: first,
});

const mediaModelProperty: INodeProperties = {
	...modelProperty,
	// Get a Video's Status and Download a Video name a job, not a model.
	displayOptions: { hide: { operation: ['status', 'download'] } },
	description:
		'The model. The list shows the models your API key may call for the operation (image, transcription, voice or video models), with their prices; where the gateway does not tell what a model is for, it shows it too.',
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

export const mediaProperties: INodeProperties[] = [
	resourceProperty,
	operationProperty('image', 'generate'),
	operationProperty('audio', 'transcribe'),
	mediaModelProperty,
	...videoProperties,
	// Each action's own fields, then its Options (its own, then the request options), shown for it alone.
	...actions.flatMap(({ resource, operation, properties }) =>
		properties.map((property) => ({ ...property, ...showFor(resource, operation.value) })),
	),
	...actions.map(({ name, resource, operation }) => ({
		...optionsCollection(REQUEST_OPTIONS, undefined, media.MediaClient.OPTIONS[name], DESCRIPTIONS),
		...showFor(resource, operation.value),
	})),
];
