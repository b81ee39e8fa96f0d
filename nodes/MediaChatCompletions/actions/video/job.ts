import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { errors, media } from '../../../../engine';
import { itemText, itemUpload, outputFileName } from '../item';
import { itemPrompt } from '../prompt';

/**
 * One item of a video operation: its parameters and Options checked before anything is sent, then its job
 * through the engine's video room (`MediaClient.video`): Generate submits, waits (unless Wait for Completion
 * is off) and downloads; Get a Video's Status polls once; Download a Video downloads a finished job.
 */

type Jobs = media.MediaClient['video'];
type JobState = Awaited<ReturnType<Jobs['status']>>;
type Ask = Parameters<Jobs['submit']>[1];

export type VideoOperation = 'generate' | 'status' | 'download';

/** An item's job, to run once the client is made. */
export type VideoItemJob = (client: media.MediaClient) => Promise<INodeExecutionData[]>;

const { video } = media.MediaClient;

/** The JSON of a job: `status` is `completed` for a finished job whatever the service's word. */
function jobJson(state: JobState, model?: string): IDataObject {
	const { id, end, progress, seconds, size, usage } = state;
	return {
		id,
		status: end === 'completed' ? 'completed' : state.status,
		...(model === undefined || model === '' ? {} : { model }),
		...(seconds === undefined ? {} : { seconds }),
		...(size === undefined ? {} : { size }),
		...(progress === undefined ? {} : { progress }),
		...(usage === undefined ? {} : { usage }),
	} as IDataObject;
}

/** The item of a finished job: its JSON and the video streamed into n8n's binary data. */
async function videoItem(
	context: IExecuteFunctions,
	itemIndex: number,
	client: media.MediaClient,
	api: Parameters<Jobs['download']>[0],
	state: JobState,
	request: Parameters<Jobs['download']>[2],
	output: string,
): Promise<INodeExecutionData> {
	const { source, type } = await client.video.download(api, state, request);
	return {
		json: jobJson(state, request.model),
		binary: {
			[output]: await context.helpers.prepareBinaryData(
				source,
				outputFileName('video', itemIndex, type.extension),
				type.mimeType,
			),
		},
		pairedItem: { item: itemIndex },
	};
}

/** The item's Input Image: its bytes, typed by them (PNG, JPEG, WebP); else the error naming the field. */
async function inputImage(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
): Promise<Ask['image']> {
	const field = 'Options > Input Image';
	const upload = itemUpload({ context, itemIndex }, name, field);
	const { bytes } = await upload.read();
	const type = media.sniffImage(bytes);
	if (type === undefined || type.extension === 'gif') {
		throw new errors.InputError(
			field,
			`${upload.source} is not a PNG, JPEG or WebP image (checked the bytes, not only the name)`,
			'Pass a PNG, JPEG or WebP image as the first frame, or remove Input Image.',
		);
	}
	return { bytes, type };
}

/** Job ID, non-empty. */
const jobId = (context: IExecuteFunctions, itemIndex: number) =>
	itemText(
		{ context, itemIndex },
		'jobId',
		'Job ID',
		"Enter the id a Generate a Video gave (its output's id), e.g. {{ $json.id }}.",
	).trim();

/** Reads and checks one item of `operation`; its job, or the error that stays with the item. */
export function videoJob(
	context: IExecuteFunctions,
	operation: VideoOperation,
	itemIndex: number,
	baseUrl: string,
): { job: VideoItemJob; model?: string } {
	const options = context.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
	const model =
		operation === 'generate'
			? context.getNodeParameter('model', itemIndex, '', { extractValue: true })
			: undefined;
	const settings = video.settings(options, model);
	const api = video.apiFor(settings.api, baseUrl);
	const { request, output } = settings;
	if (operation === 'status') {
		const id = jobId(context, itemIndex);
		return {
			job: async (client) => [
				{
					json: jobJson(await client.video.status(api, id, request)),
					pairedItem: { item: itemIndex },
				},
			],
		};
	}
	if (operation === 'download') {
		const id = jobId(context, itemIndex);
		return {
			job: async (client) => {
				const state = await client.video.status(api, id, request);
				return [await videoItem(context, itemIndex, client, api, state, request, output)];
			},
		};
	}
	const prompt = itemPrompt(
		{ context, itemIndex },
		'Describe the video to make, e.g. "A drone shot over a foggy forest at dawn".',
	);
	if (settings.inputImage !== undefined) {
		// Checked now, so that an item without the field sends nothing.
		itemUpload({ context, itemIndex }, settings.inputImage, 'Options > Input Image');
	}
	return {
		model: request.model,
		job: async (client) => {
			const image =
				settings.inputImage === undefined
					? undefined
					: await inputImage(context, itemIndex, settings.inputImage);
			const ask: Ask = {
				model: request.model,
				prompt,
				...settings.ask,
				...(image === undefined ? {} : { image }),
			};
			const submitted = await client.video.submit(api, ask, request);
			const since = Date.now();
			if (!settings.wait) {
				return [
					{
						json: { id: submitted.id, status: submitted.status },
						pairedItem: { item: itemIndex },
					},
				];
			}
			const waited = await client.video.wait(api, submitted, request, settings.maxWaitMs, since);
			if (waited.timedOut === true) {
				return [
					{
						json: {
							id: waited.id,
							status: waited.status,
							...(waited.progress === undefined ? {} : { progress: waited.progress }),
							notFinished: `The video did not finish within Max Wait (${settings.maxWaitMs / 1000} s). Use Get a Video's Status or Download a Video with the id ${waited.id} to get it later.`,
						},
						pairedItem: { item: itemIndex },
					},
				];
			}
			return [await videoItem(context, itemIndex, client, api, waited, request, output)];
		},
	};
}
