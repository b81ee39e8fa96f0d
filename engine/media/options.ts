import type { ChoiceOption, NumberOption, TextOption } from '../options/table';

/**
 * The Options two or more image and audio operations share, each declared once (an operation's own are in its
 * row): name (saved in workflows), label, default,
 * range and wire field. Each operation's row lists its own (`operations/`); the node's Options collections and
 * the request bodies are both made from them.
 * An option with a wire field is sent only when set (but Response Format of Generate an Image, which the node
 * always sends: it reads images as bytes unless told otherwise); one without is a setting of the node.
 */

export const count = {
	kind: 'number',
	name: 'n',
	label: 'Number of Images',
	default: 1,
	min: 1,
	max: 10,
	whole: true,
	wire: 'n',
	fix: 'Use a whole number from 1 to 10, e.g. 2.',
	description: 'How many images to make (n). Each image is an output item of its own.',
} as const satisfies NumberOption;

export const size = {
	kind: 'text',
	name: 'size',
	label: 'Size',
	default: '1024x1024',
	placeholder: 'e.g. 1024x1024',
	wire: 'size',
	description:
		"The image's size (size) as the model names its sizes, e.g. 1024x1024, 1536x1024 or auto. Not added, the model decides.",
} as const satisfies TextOption;

export const output = {
	kind: 'text',
	name: 'binaryPropertyOutput',
	label: 'Put Output in Field',
	default: 'data',
	placeholder: 'e.g. data',
	description: 'The name of the binary field the image or audio goes to',
} as const satisfies TextOption;

export const hint = {
	kind: 'text',
	name: 'prompt',
	label: 'Prompt',
	default: '',
	rows: 2,
	placeholder: 'e.g. n8n, LangChain, Kubernetes',
	wire: 'prompt',
	description:
		'Text that guides the transcript (prompt): names and terms it contains, or the style of the previous part of a longer recording',
} as const satisfies TextOption;

export const transcriptFormat = {
	kind: 'choice',
	name: 'responseFormat',
	label: 'Response Format',
	default: 'json',
	wire: 'response_format',
	choices: [
		{ name: 'JSON', value: 'json', description: 'The text (json)' },
		{
			name: 'Verbose JSON',
			value: 'verbose_json',
			description: 'The text, with its language, duration and timed segments (verbose_json)',
		},
		{ name: 'Text', value: 'text', description: 'The text alone (text)' },
		{ name: 'SRT Subtitles', value: 'srt', description: 'Subtitles in SRT (srt)' },
		{ name: 'WebVTT Subtitles', value: 'vtt', description: 'Subtitles in WebVTT (vtt)' },
	],
	description:
		"How the service writes the transcript (response_format); the item's text field holds it. Not added, nothing is sent and the service answers JSON.",
} as const satisfies ChoiceOption;

export const temperature = {
	kind: 'number',
	name: 'temperature',
	label: 'Temperature',
	default: 0,
	min: 0,
	max: 1,
	whole: false,
	precision: 2,
	wire: 'temperature',
	fix: 'Use a number from 0 to 1, e.g. 0.2.',
	description:
		'How freely the model guesses words it hears badly (temperature): 0 to 1. Not added, the model decides.',
} as const satisfies NumberOption;
