/** How the failure table reads the image and audio endpoints' failures: the node's words, retries, the service's words. */
import { classify } from '../../../engine/failures/table';
import { OPERATIONS } from '../../../engine/media/operations';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { endpointAt } from '../../support/endpoints.cts';
import { replyWith as reply, subNodeWords } from '../../support/sub-node-replies.cts';

const WORDS = subNodeWords('the Chat Completions Media node', []);
const BASE = 'https://gw.example.com/v1';

/** A service's answer at `endpoint` (none: chat), what the user reads of it and its row. */
function answered(status: number, body: unknown, endpoint?: string, model = 'echo-1') {
	const error = serviceErrorFrom(
		reply(body, status),
		undefined,
		endpoint === undefined ? undefined : endpointAt(endpoint),
	);
	const row = classify(error);
	return {
		...describeProblem(error, { words: WORDS, model, baseUrl: BASE }),
		row: row.name,
		retry: row.retry,
	};
}

const openAiPolicy = {
	error: {
		message:
			'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
		type: 'invalid_request_error',
		param: null,
		code: 'content_policy_violation',
	},
};

test.each<[string, number, unknown, string | undefined]>([
	["OpenAI's content_policy_violation", 400, openAiPolicy, 'images/generations'],
	[
		"gpt-image's moderation_blocked at an edit",
		400,
		{ error: { message: 'Request blocked.', code: 'moderation_blocked' } },
		'images/edits',
	],
	[
		"Azure's content filter in chat",
		400,
		{
			error: {
				message:
					"The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
				code: 'content_filter',
			},
		},
		undefined,
	],
	[
		'the words alone',
		400,
		{ error: { message: 'Rejected by the safety system.' } },
		'images/generations',
	],
])(
	"%s: the provider's content policy refused the prompt; reword it; not retried",
	(_name, status, body, endpoint) => {
		const said = answered(status, body, endpoint);
		expect(said.message).toBe("The provider's content policy refused the prompt");
		expect(said.description).toMatch(
			/^The service answered ".*" \(HTTP 400.*\)\. Reword the prompt/,
		);
		expect(said.retry).toBe('never');
	},
);

test.each<[string, number, unknown, string, string]>([
	[
		'a 400 model_not_supported',
		400,
		{
			error: {
				message: 'The model `echo-1` does not support image generation',
				code: 'model_not_supported',
			},
		},
		'images/generations',
		'Model "echo-1" cannot make images: it is not an image model',
	],
	[
		"OpenAI's list of image models",
		400,
		{
			error: {
				message:
					"Invalid value: 'echo-1'. Supported values are: 'gpt-image-1', 'dall-e-2', and 'dall-e-3'.",
				code: 'invalid_value',
			},
		},
		'images/edits',
		'Model "echo-1" cannot make images: it is not an image model',
	],
	[
		'a 404 that says it has no such endpoint for the model',
		404,
		{ error: { message: 'No endpoints found for echo-1 that support image generation' } },
		'images/generations',
		'Model "echo-1" cannot make images: it is not an image model',
	],
	[
		'a 404 model_not_supported at transcriptions',
		404,
		{
			error: {
				message: 'The model `echo-1` does not support audio transcriptions or translations',
				code: 'model_not_supported',
			},
		},
		'audio/transcriptions',
		'Model "echo-1" cannot transcribe recordings: it is not a transcription model',
	],
	[
		'the same at translations',
		400,
		{ error: { message: 'echo-1 is not a transcription model' } },
		'audio/translations',
		'Model "echo-1" cannot transcribe recordings: it is not a transcription model',
	],
	[
		'a chat model asked to speak',
		400,
		{
			error: {
				message: 'The model `echo-1` does not support text-to-speech',
				code: 'model_not_supported',
			},
		},
		'audio/speech',
		'Model "echo-1" cannot speak: it is not a text-to-speech model',
	],
])(
	'a model the endpoint refuses (%s): its name and what it cannot do, the fix, not retried',
	(_name, status, body, endpoint, message) => {
		const said = answered(status, body, endpoint);
		expect(said.message).toBe(message);
		expect(said.description).toMatch(
			new RegExp(
				`^The service answered .*\\(HTTP ${status}.*\\)\\. Choose an? .* in the Model field`,
			),
		);
		expect(said.retry).toBe('never');
	},
);

test('the same answer in chat keeps its chat words', () => {
	const body = {
		error: {
			message: 'The model `echo-1` does not support image generation',
			code: 'model_not_supported',
		},
	};
	expect(answered(400, body).message).not.toMatch(/cannot make images/);
});

test.each<[string, string]>([
	['audio/transcriptions', 'The service refused the recording as too large'],
	['audio/translations', 'The service refused the recording as too large'],
	['images/edits', 'The service refused the images as too large'],
])('a 413 at %s: %s, with the limit to keep to', (endpoint, message) => {
	const said = answered(
		413,
		{ error: { message: 'Maximum content size limit (26214400) exceeded (27000000 bytes read)' } },
		endpoint,
	);
	expect(said.message).toBe(message);
	expect(said.description).toMatch(/HTTP 413.*Send less: a recording of at most 25 MB/);
	expect(said.retry).toBe('never');
});

test.each<[string, string]>([
	['audio/transcriptions', 'The audio file could not be decoded or its format is not supported.'],
	['audio/translations', "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'wav']"],
])('a recording the service cannot read at %s: the file, not the model', (endpoint, message) => {
	const said = answered(400, { error: { message, type: 'invalid_request_error' } }, endpoint);
	expect(said.message).toBe('The service could not read the recording as audio');
	expect(said.description).toMatch(/pass the whole recording, or convert it to MP3 first/);
	expect(said.description).not.toMatch(/transcription model/);
	expect(said.retry).toBe('never');
});

test.each<[string, number, unknown]>([
	[
		'the local service',
		400,
		{ error: { message: "'input' must be at most 4096 characters, got 5000", param: 'input' } },
	],
	[
		"OpenAI's string_too_long",
		400,
		{
			error: {
				message:
					"[{'type': 'string_too_long', 'loc': ('body', 'input'), 'msg': 'String should have at most 4096 characters'}]",
				code: 'string_above_max_length',
			},
		},
	],
	['a gateway', 422, { error: { message: 'input is too long' } }],
])('a text too long to speak (%s): shorten or split it, no Batch Size', (_name, status, body) => {
	const said = answered(status, body, 'audio/speech', 'tts-1');
	expect(said.message).toBe('The service refused the text to speak as too long');
	expect(said.description).toMatch(/Shorten the text .* or split it into parts, one item each/);
	expect(said.description).not.toMatch(/Batch Size/);
	expect(said.retry).toBe('never');
});

test.each<[string, string]>([
	['images/generations', 'image generation'],
	['images/edits', 'image edit'],
	['audio/transcriptions', 'transcription'],
	['audio/translations', 'translation'],
	['audio/speech', 'speech'],
	['rerank', 'rerank'],
])('a 404 naming no model at %s: the service has no %s endpoint', (endpoint, name) => {
	const said = answered(404, '<html><title>404 Not Found</title></html>', endpoint);
	expect(said.message).toBe(
		`The service at "${BASE}" has no ${name} endpoint: POST ${BASE}/${endpoint} answered 404`,
	);
	expect(said.description).toMatch(
		new RegExp(
			`If it is right, this gateway does not offer .*: use one that serves POST /${endpoint}\\.$`,
		),
	);
});

test.each<string>(['images/generations', 'audio/speech', 'rerank'])(
	'a 404 whose words name a missing model at %s: the model does not exist, not a missing endpoint',
	(endpoint) => {
		const said = answered(
			404,
			{ error: { message: 'model "flux-9" not found, try pulling it first' } },
			endpoint,
			'flux-9',
		);
		expect(said.message).toMatch(/^Model "flux-9" does not exist/);
	},
);

test('the key, rate limits and server failures read as for every request', () => {
	expect(
		answered(401, { error: { message: 'Incorrect API key' } }, 'images/generations').message,
	).toBe('The service rejected the API key');
	expect(answered(429, { error: { message: 'Rate limit reached' } }, 'audio/speech').retry).toBe(
		'wait',
	);
	expect(
		answered(500, { error: { message: 'Internal error' } }, 'audio/transcriptions').retry,
	).toBe('back-off');
	const missing = answered(
		404,
		{ error: { message: 'The model `image-9` does not exist', code: 'model_not_found' } },
		'images/generations',
		'image-9',
	);
	expect(missing.message).toBe('Model "image-9" does not exist on this service');
});

test('a ServiceError names the operation: the words take its name and the path it called from the error, not from the path', () => {
	const error = serviceErrorFrom(reply('<html>404</html>', 404), undefined, {
		...OPERATIONS.speak.endpoint,
		path: 'audio/speech/v2',
	});
	expect(classify(error).name).toBe('endpoint not offered');
	expect(describeProblem(error, { words: WORDS, baseUrl: BASE }).message).toBe(
		`The service at "${BASE}" has no speech endpoint: POST ${BASE}/audio/speech/v2 answered 404`,
	);
	const refused = serviceErrorFrom(
		reply({ error: { message: 'echo-1 does not support text-to-speech' } }, 400),
		undefined,
		{ ...OPERATIONS.speak.endpoint, path: 'audio/speech/v2' },
	);
	expect(describeProblem(refused, { words: WORDS, model: 'echo-1', baseUrl: BASE }).message).toBe(
		'Model "echo-1" cannot speak: it is not a text-to-speech model',
	);
});
