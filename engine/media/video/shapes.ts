import type { MediaType } from '../sniff';
import type { FormPart } from '../multipart';
import { isPlainObject } from '../../values';

/**
 * The three shapes gateways serve video in, one row each: where a job is submitted and with what body, where
 * it is polled, how its state reads, and where its video is downloaded. `openai` (OpenAI, new-api, LiteLLM,
 * Portkey): `POST /videos`; `openrouter`: `POST /videos` JSON, `unsigned_urls` on the Base URL's origin;
 * `newApi`: new-api's `POST /video/generations`, its `url` on a CDN.
 */
export type VideoApi = 'openai' | 'openrouter' | 'newApi';

/** What a Generate sends: the model, the prompt and the Options set (each only when set). */
export interface VideoAsk {
	model: string;
	prompt: string;
	duration?: number;
	size?: string;
	aspectRatio?: string;
	resolution?: string;
	seed?: number;
	generateAudio?: boolean;
	image?: { bytes: Uint8Array; type: MediaType };
}

/** A job's state, read from a submit's or a poll's answer; `end` once it is over. */
export interface JobState {
	id: string;
	/** The service's own word: `queued`, `pending`, `in_progress`, `succeeded`, ... */
	status: string;
	end?: 'completed' | 'failed' | 'cancelled' | 'expired';
	progress?: number;
	error?: { message: string; code?: string };
	/** Where the finished video is, when the state says it (OpenRouter's `unsigned_urls[0]`, new-api's `url`). */
	url?: string;
	usage?: unknown;
	seconds?: unknown;
	size?: unknown;
}

/** A submit's body: JSON, or multipart parts (OpenAI's shape with an image). */
export type SubmitBody = { json: object } | { parts: FormPart[] };

export interface VideoShape {
	submitPath: string;
	submit(ask: VideoAsk): SubmitBody;
	pollPath(id: string): string;
	/** The job in an answer; undefined when it holds no id. */
	read(json: unknown): JobState | undefined;
	/** The video's URL once completed (relative URLs are under the Base URL). */
	download(state: JobState): string | undefined;
}

const dataUrl = (image: NonNullable<VideoAsk['image']>) =>
	`data:${image.type.mimeType};base64,${Buffer.from(image.bytes).toString('base64')}`;

/** `{name: value}` for each value that is set. */
const set = (fields: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** An error as a shape sends it: `{code, message}` or a string. */
function errorOf(value: unknown): JobState['error'] {
	if (typeof value === 'string' && value !== '') return { message: value };
	if (!isPlainObject(value)) return undefined;
	const message = text(value.message) ?? JSON.stringify(value);
	const code = text(value.code);
	return { message, ...(code === undefined ? {} : { code }) };
}

/** A state from an answer, its id under `idField` and its service's words for the ends. */
function stateOf(
	json: unknown,
	idField: string,
	ends: Record<string, NonNullable<JobState['end']>>,
): JobState | undefined {
	if (!isPlainObject(json)) return undefined;
	const id = text(json[idField]) ?? text(json.id);
	if (id === undefined || id === '') return undefined;
	const status = text(json.status) ?? 'unknown';
	const urls = Array.isArray(json.unsigned_urls) ? json.unsigned_urls : [];
	const url = text(urls[0]) ?? text(json.url);
	const error = errorOf(json.error);
	return set({
		id,
		status,
		end: ends[status],
		progress: number(json.progress),
		error,
		url,
		usage: json.usage,
		seconds: json.seconds,
		size: json.size,
	}) as unknown as JobState;
}

const OPENAI_ENDS = { completed: 'completed', failed: 'failed' } as const;
const OPENROUTER_ENDS = { ...OPENAI_ENDS, cancelled: 'cancelled', expired: 'expired' } as const;
const NEW_API_ENDS = { succeeded: 'completed', failed: 'failed' } as const;

export const VIDEO_SHAPES: Record<VideoApi, VideoShape> = {
	openai: {
		submitPath: 'videos',
		submit: ({ model, prompt, duration, size, image }) => {
			const fields = set({
				model,
				prompt,
				seconds: duration === undefined ? undefined : String(duration),
				size,
			}) as Record<string, string>;
			if (image === undefined) return { json: fields };
			return {
				parts: [
					...Object.entries(fields).map(([name, value]) => ({ name, value })),
					{
						name: 'input_reference',
						file: {
							bytes: image.bytes,
							fileName: `input.${image.type.extension}`,
							mimeType: image.type.mimeType,
						},
					},
				],
			};
		},
		pollPath: (id) => `videos/${encodeURIComponent(id)}`,
		read: (json) => stateOf(json, 'id', OPENAI_ENDS),
		download: ({ id }) => `videos/${encodeURIComponent(id)}/content`,
	},
	openrouter: {
		submitPath: 'videos',
		submit: (ask) => ({
			json: set({
				model: ask.model,
				prompt: ask.prompt,
				duration: ask.duration,
				resolution: ask.resolution,
				aspect_ratio: ask.aspectRatio,
				size: ask.size,
				seed: ask.seed,
				generate_audio: ask.generateAudio,
				frame_images:
					ask.image === undefined
						? undefined
						: [
								{
									type: 'image_url',
									image_url: { url: dataUrl(ask.image) },
									frame_type: 'first_frame',
								},
							],
			}),
		}),
		pollPath: (id) => `videos/${encodeURIComponent(id)}`,
		read: (json) => stateOf(json, 'id', OPENROUTER_ENDS),
		download: ({ url }) => url,
	},
	newApi: {
		submitPath: 'video/generations',
		submit: (ask) => {
			const [width, height] = (ask.size ?? '').split('x').map(Number);
			const sized = Number.isFinite(width) && Number.isFinite(height) && ask.size !== undefined;
			return {
				json: set({
					model: ask.model,
					prompt: ask.prompt,
					duration: ask.duration,
					width: sized ? width : undefined,
					height: sized ? height : undefined,
					image: ask.image === undefined ? undefined : dataUrl(ask.image),
				}),
			};
		},
		pollPath: (id) => `video/generations/${encodeURIComponent(id)}`,
		read: (json) => stateOf(json, 'task_id', NEW_API_ENDS),
		download: ({ url }) => url,
	},
};

/** Video API `auto`: OpenRouter's shape on openrouter.ai, else OpenAI's. */
export function videoApiFor(choice: string | undefined, baseUrl: string): VideoApi {
	if (choice === 'openai' || choice === 'openrouter' || choice === 'newApi') return choice;
	const host = new URL(baseUrl).hostname;
	return host === 'openrouter.ai' || host.endsWith('.openrouter.ai') ? 'openrouter' : 'openai';
}
