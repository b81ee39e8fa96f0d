import type { VideoApi, VideoAsk } from './shapes';
import { output } from '../options';
import type { JobRequest } from './job';
import { checkedValue, optionSetting } from '../../options/read';
import { endpointRequest } from '../../request/endpoint';
import { retryPolicy } from '../../request/retry-policy';
import type {
	BooleanOption,
	ChoiceOption,
	NumberOption,
	OptionSpec,
	TextOption,
} from '../../options/table';

/** The Options of Generate a Video, each sent only when set, in the shape's own field names. */
const duration = {
	kind: 'number',
	name: 'duration',
	label: 'Duration',
	default: 8,
	min: 1,
	max: 600,
	whole: true,
	fix: 'Use a whole number of seconds the model makes, e.g. 4, 8 or 12.',
	description:
		"The video's length in seconds (OpenAI's seconds, as text; OpenRouter's and new-api's duration). Not added, the model decides.",
} as const satisfies NumberOption;

const text = (name: string, label: string, example: string, description: string) =>
	({
		kind: 'text',
		name,
		label,
		default: '',
		placeholder: `e.g. ${example}`,
		description,
	}) as const satisfies TextOption;

const size = text(
	'size',
	'Size',
	'1280x720',
	"The video's size as WxH (size; new-api's width and height). Not added, the model decides.",
);
const aspectRatio = text(
	'aspectRatio',
	'Aspect Ratio',
	'16:9',
	"The video's aspect ratio (aspect_ratio, OpenRouter). Not added, the model decides.",
);
const resolution = text(
	'resolution',
	'Resolution',
	'720p',
	"The video's resolution (resolution, OpenRouter). Not added, the model decides.",
);
const inputImage = text(
	'inputImage',
	'Input Image',
	'data',
	"The binary field of the item holding a first frame or reference image (PNG, JPEG or WebP): OpenAI's input_reference, OpenRouter's frame_images, new-api's image.",
);

const seed = {
	kind: 'number',
	name: 'seed',
	label: 'Seed',
	default: 0,
	min: 0,
	whole: true,
	fix: 'Use a whole number, e.g. 42.',
	description:
		'The same seed, prompt and model make the same video where the model supports it (seed).',
} as const satisfies NumberOption;

const generateAudio = {
	kind: 'boolean',
	name: 'generateAudio',
	label: 'Generate Audio',
	default: true,
	description: 'Whether the video has sound (generate_audio, OpenRouter)',
} as const satisfies BooleanOption;

const waitForCompletion = {
	kind: 'boolean',
	name: 'waitForCompletion',
	label: 'Wait for Completion',
	default: true,
	description:
		"Whether the node waits for the video and downloads it. Off: the item holds the job's id and status at once; use Get a Video's Status and Download a Video later (e.g. after n8n's Wait node), which keeps no worker busy.",
} as const satisfies BooleanOption;

const maxWait = {
	kind: 'number',
	name: 'maxWait',
	label: 'Max Wait',
	default: 600,
	min: 1,
	max: 86_400,
	whole: true,
	fix: 'Use a whole number of seconds, e.g. 600.',
	description:
		"How long to wait for the video, in seconds. When it runs out the item holds the job's id and its last status (not an error): get the video later with Download a Video.",
} as const satisfies NumberOption;

export const videoApi = {
	kind: 'choice',
	name: 'videoApi',
	label: 'Video API',
	default: 'auto',
	choices: [
		{
			name: 'Auto',
			value: 'auto',
			description: "OpenRouter's on openrouter.ai, else OpenAI's",
		},
		{
			name: 'OpenAI',
			value: 'openai',
			description: 'POST /videos, GET /videos/{id}/content (new-api, LiteLLM, Portkey)',
		},
		{
			name: 'OpenRouter',
			value: 'openrouter',
			description: 'POST /videos JSON, the video at unsigned_urls',
		},
		{
			name: 'New-API',
			value: 'newApi',
			description: "new-api's POST /video/generations, the video at its url",
		},
	],
	description: 'The shape the gateway serves video in',
} as const satisfies ChoiceOption;

export const VIDEO_OPTIONS = {
	generate: [
		duration,
		size,
		aspectRatio,
		resolution,
		seed,
		generateAudio,
		inputImage,
		waitForCompletion,
		maxWait,
		output,
		videoApi,
	],
	status: [videoApi],
	download: [videoApi, output],
} as const satisfies Record<string, readonly OptionSpec[]>;

/** A Generate's settings from the item's Options, each checked (naming the option) and only when set. */
export interface VideoSettings {
	/** The model (none for Get a Video's Status and Download a Video), Timeout and the retries. */
	request: JobRequest;
	ask: Omit<VideoAsk, 'model' | 'prompt' | 'image'>;
	inputImage?: string;
	wait: boolean;
	maxWaitMs: number;
	output: string;
	api: string;
}

const labelled = <S extends OptionSpec>(spec: S) => ({ ...spec, label: `Options > ${spec.label}` });

/** The checked value of a number or text option, when set. */
function value(spec: NumberOption | TextOption | ChoiceOption, options: Record<string, unknown>) {
	const raw = options[spec.name];
	if (raw === undefined || raw === '') return undefined;
	return checkedValue(labelled(spec), raw);
}

const textOf = (spec: TextOption | ChoiceOption, options: Record<string, unknown>) => {
	const read = value(spec, options);
	return read === undefined ? undefined : String(read).trim() || undefined;
};

const OWN = new Set<string>(VIDEO_OPTIONS.generate.map((spec) => spec.name));

/** The item's request: its Model checked (Generate), Timeout and retries from the request options. */
function jobRequest(model: unknown, options: Record<string, unknown>): JobRequest {
	const shared = Object.fromEntries(Object.entries(options).filter(([name]) => !OWN.has(name)));
	if (model === undefined) {
		return { model: '', timeout: optionSetting(shared, 'timeout'), retry: retryPolicy(shared) };
	}
	const checked = endpointRequest(model, shared, {});
	return { model: checked.model, timeout: checked.timeout, retry: checked.retry };
}

/** An item's Model (Generate only) and Options of a video operation, checked. */
export function videoSettings(options: Record<string, unknown>, model?: unknown): VideoSettings {
	const audio = options.generateAudio;
	const ask = {
		duration: value(duration, options) as number | undefined,
		size: textOf(size, options),
		aspectRatio: textOf(aspectRatio, options),
		resolution: textOf(resolution, options),
		seed: value(seed, options) as number | undefined,
		generateAudio: typeof audio === 'boolean' ? audio : undefined,
	};
	return {
		request: jobRequest(model, options),
		ask: Object.fromEntries(Object.entries(ask).filter(([, set]) => set !== undefined)),
		inputImage: textOf(inputImage, options),
		wait: options.waitForCompletion !== false,
		maxWaitMs: ((value(maxWait, options) as number | undefined) ?? maxWait.default) * 1000,
		output: textOf(output, options) ?? output.default,
		api: textOf(videoApi, options) ?? videoApi.default,
	};
}

export type { VideoApi };
