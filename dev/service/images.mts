/**
 * POST /v1/images/generations (JSON) and /v1/images/edits (multipart): the images of `image-1`
 * (models/image.mts), made in code (images/draw.mts), as `b64_json` or as a `url` this service serves
 * (image-store.mts), each with the model's `revised_prompt`; the `x_local` knobs applied (media-knobs.mts).
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { ChatContext } from './chat.mts';
import { endpointModel } from './endpoint-model.mts';
import { ApiError, invalidRequest } from './errors.mts';
import { sendJson } from './http-io.mts';
import { described, draw, MIME_TYPES, type Drawing } from './images/draw.mts';
import type { ImageStore } from './image-store.mts';
import { parseEditRequest, parseGenerationRequest, type ImageRequest } from './image-request.mts';
import { checkFailFirst } from './knob-faults.mts';
import { isImageModel, type ImageModel } from './models/image.mts';
import type { ModelDefinition } from './models/model.mts';
import { otherHost } from './redirect.mts';

export interface ImageContext extends ChatContext {
	store: ImageStore;
	/** The Host header of the request: `url` answers point at the service under it. */
	host: string | undefined;
}

/** A chat (or any other) model asked for images: a 400 naming the model, as gateways answer. */
const cannotDraw = (model: ModelDefinition) =>
	new ApiError({
		status: 400,
		message: `The model \`${model.id}\` does not support image generation`,
		type: 'invalid_request_error',
		param: 'model',
		code: 'model_not_supported',
	});

/** The provider's safety system refused the prompt (`content_policy` knob), in OpenAI's shape. */
const contentPolicy = new ApiError({
	status: 400,
	message:
		'Your request was rejected as a result of the safety system: the prompt may contain text that the content policy does not allow.',
	type: 'invalid_request_error',
	param: null,
	code: 'content_policy_violation',
});

/** Where `url` answers point: this service under the request's host, or under its other name (`other_origin`). */
function origin(request: ImageRequest, host: string | undefined): string {
	if (!request.knobs.otherOrigin) return `http://${host}`;
	const other = otherHost(host);
	if (other === undefined) {
		throw invalidRequest(
			"'x_local.other_origin' needs the service reached as 127.0.0.1 or localhost",
			'x_local.other_origin',
			'invalid_value',
		);
	}
	return `http://${other}`;
}

/** The images of `request`, one drawing each, after the knobs that fail it; none with `no_images`, N with `images`. */
async function answer(
	res: ServerResponse,
	request: ImageRequest,
	model: ImageModel,
	text: (index: number) => Record<string, string>,
	context: ImageContext,
): Promise<void> {
	const { knobs, width, height, outputFormat: format } = request;
	if (knobs.slowMs > 0) await delay(knobs.slowMs);
	checkFailFirst(knobs.failFirst, context.counts);
	if (knobs.contentPolicy) throw contentPolicy;
	const revised = model.revise(request.prompt);
	const base = origin(request, context.host);
	const drawings: Drawing[] = Array.from(
		{ length: knobs.noImages ? 0 : (knobs.images ?? request.n) },
		(_, index) => ({
			width,
			height,
			format,
			text: text(index),
		}),
	);
	const data = drawings.map((drawing) => {
		const bytes = draw(drawing);
		const image =
			request.responseFormat === 'url'
				? { url: `${base}${knobs.urlPath ?? context.store.put(bytes, MIME_TYPES[format])}` }
				: { b64_json: bytes.toString('base64') };
		return { ...image, revised_prompt: revised };
	});
	sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data });
}

export async function imageGenerations(
	res: ServerResponse,
	rawBody: string,
	context: ImageContext,
): Promise<void> {
	const request = parseGenerationRequest(rawBody);
	const model = await endpointModel(res, request.model, context, isImageModel, cannotDraw);
	if (model === undefined) return;
	const { prompt, n, width, height } = request;
	const text = (index: number) => ({
		prompt,
		image: `${index + 1} of ${n}`,
		size: `${width}x${height}`,
	});
	await answer(res, request, model, text, context);
}

export async function imageEdits(
	res: ServerResponse,
	contentType: string | undefined,
	body: Buffer,
	context: ImageContext,
): Promise<void> {
	const request = parseEditRequest(contentType, body);
	const model = await endpointModel(res, request.model, context, isImageModel, cannotDraw);
	if (model === undefined) return;
	const { prompt, n, images, mask } = request;
	const inputs = images.map((image) => `${image.at}: ${described(image.info, image.bytes)}`);
	const text = (index: number) => ({
		prompt,
		image: `${index + 1} of ${n}`,
		inputs: inputs.join('; '),
		mask: mask === undefined ? 'none' : described(mask.info, mask.bytes),
	});
	await answer(res, request, model, text, context);
}
