import type { INodeProperties } from 'n8n-workflow';

import type { OptionName } from '../../../../engine';
import { endpointDescriptions, media, optionsCollection } from '../../../../engine';
import { promptProperty } from '../prompt';
import type { VideoOperation } from './job';

/** The video operations, as the Operation list shows them. */
const OPERATIONS: Array<{
	name: string;
	value: VideoOperation;
	action: string;
	description: string;
}> = [
	{
		name: 'Download a Video',
		value: 'download',
		action: 'Download a video',
		description: 'Download the video of a finished job as binary data',
	},
	{
		name: 'Generate a Video',
		value: 'generate',
		action: 'Generate a video',
		description:
			"Make a video from a prompt: submit the job, wait for it and download it. n8n's Retry On Fail submits the job again, which is paid again.",
	},
	{
		name: "Get a Video's Status",
		value: 'status',
		action: "Get a video's status",
		description: "A job's status and progress, nothing downloaded",
	},
];

/** Timeout and the retries: a video request has no Extra Body. */
const REQUEST_OPTIONS: readonly OptionName[] = [
	'timeout',
	'maxRetries',
	'maxRetryWait',
	'maxRateLimitWait',
];

const showFor = (operation: VideoOperation) => ({
	displayOptions: { show: { resource: ['video'], operation: [operation] } },
});

const jobIdProperty = (operation: VideoOperation): INodeProperties => ({
	displayName: 'Job ID',
	name: 'jobId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. video_68d7512d07848190',
	description: "The ID a Generate a Video gave (its output's ID; new-api's task_id)",
	...showFor(operation),
});

export const videoProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['video'] } },
		options: OPERATIONS,
		default: 'generate',
	},
	{
		...promptProperty,
		placeholder: 'e.g. A drone shot over a foggy forest at dawn',
		description: 'What the video shows',
		...showFor('generate'),
	},
	jobIdProperty('status'),
	jobIdProperty('download'),
	...(['generate', 'status', 'download'] as const).map((operation) => ({
		...optionsCollection(
			REQUEST_OPTIONS,
			undefined,
			media.MediaClient.video.OPTIONS[operation],
			endpointDescriptions(),
		),
		...showFor(operation),
	})),
];
