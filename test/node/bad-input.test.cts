/**
 * Malformed input is refused before anything is sent: each row runs one item through n8n's engine
 * with "On Error: Continue" and checks the exact message, that the description holds the fix, and that
 * the service received nothing.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { dataUri, pngHeader } from '../support/images.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const simple = (extra: INodeParameters) => simpleParameters('Hello', 'echo-1', extra);
const options = (values: INodeParameters) => simple({ options: values });
const modelId = (value: string) => simple({ model: { __rl: true, mode: 'id', value } });
const rows = (...values: INodeParameters[]) =>
	simple({ promptType: 'messages', messages: { values } });
const messagesJson = (value: string) => simple({ promptType: 'json', messagesJson: value });
const city = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const toolRows = (...values: INodeParameters[]) => ({ toolsMode: 'define', tools: { values } });
const weather = {
	name: 'weather',
	description: 'Weather in a city',
	parameters: JSON.stringify(city),
};
const withTools = (...values: INodeParameters[]) => simple(toolRows(...values));
const imageUrls = (value: string) => simple({ withImages: true, imageUrls: value });
const binaryProperty = (name: string, extra: INodeParameters = {}) =>
	simple({ withImages: true, imageBinaryProperties: name, ...extra });

/** The reason V8's JSON.parse gives, which the node quotes. */
function jsonReason(text: string): string {
	try {
		JSON.parse(text);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error(`${text} is valid JSON`);
}

const binaryItem = (bytes: Buffer, mimeType: string, fileName: string): INodeExecutionData[] => [
	{ json: {}, binary: { data: { data: bytes.toString('base64'), mimeType, fileName } } },
];
const bigPng = Buffer.concat([pngHeader(4000, 3000), Buffer.alloc(1.5 * 1024 * 1024 - 33)]);
const base64Png = Buffer.concat([pngHeader(2, 3), Buffer.alloc(40)]).toString('base64');
const partsFix = /Content parts are/;
const jsonFix = /Give an array of messages/;
const schemaFix = /Give a JSON schema object/;
const mapFix = /Map a field the input item has/;
const optionFix = (label: string) => new RegExp(`remove Options > ${label} to leave it unset`);
const removeFix = (field: string) => new RegExp(`Remove "${field}" from Extra Body`);
const urlFix = /Put each URL on its own line\. A space that belongs to a URL is written %20/;
/** Two URLs on one line: no word of %20, which would not help. */
const urlsFix = /^Put each URL on its own line, without commas or spaces between them.$/;

type Row = [
	name: string,
	parameters: INodeParameters,
	message: string,
	fix: RegExp,
	items?: INodeExecutionData[],
];

const table: Row[] = [
	[
		'model as an object',
		modelId('={{ { id: "echo-1" } }}'),
		'Model: must be text, got an object',
		/Choose a model from the list/,
	],
	[
		'model as a number',
		modelId('={{ 42 }}'),
		'Model: must be text, got 42',
		/Choose a model from the list/,
	],
	// n8n itself refuses an empty Model field; an expression can still give an empty ID.
	[
		'model empty',
		modelId('={{ $json.model }}'),
		'Model: is empty',
		/switch to "ID" and type the model ID/,
		jsonItems({ model: '' }),
	],
	[
		'model from a field the item lacks',
		modelId('={{ $json.model }}'),
		'Model: is empty because its expression {{ $json.model }} finds no field "model" in the input item',
		/Map a field that holds the model ID/,
	],
	[
		'model with spaces',
		modelId('echo 1'),
		'Model: "echo 1" contains spaces',
		/Model IDs have no spaces/,
	],
	[
		'prompt as an object',
		simpleParameters('={{ { text: "Hi" } }}'),
		'User Prompt: must be text, got an object',
		/JSON\.stringify/,
	],
	[
		'prompt as an array',
		simpleParameters('={{ ["Hi"] }}'),
		'User Prompt: must be text, got an array',
		/JSON\.stringify/,
	],
	['prompt empty', simpleParameters('  '), 'User Prompt: is empty', /Type a prompt/],
	[
		'prompt from a field the item lacks',
		simpleParameters('={{ $json.text }}'),
		'User Prompt: is empty because its expression {{ $json.text }} finds no field "text" in the input item',
		mapFix,
		jsonItems({ question: 'Hi' }),
	],
	[
		'prompt from a nested field the item lacks',
		simpleParameters('={{ $json.ticket.body }}'),
		'User Prompt: is empty because its expression {{ $json.ticket.body }} finds no "body" in the input item\'s field "ticket"',
		mapFix,
		jsonItems({ ticket: { subject: 'Refund' } }),
	],
	[
		'system message as an object',
		simple({ systemMessage: '={{ { role: "system" } }}' }),
		'System Message: must be text, got an object',
		/JSON\.stringify/,
	],
	[
		'temperature as a word',
		options({ temperature: 'warm' }),
		'Temperature: must be a number from 0 to 2, got the text "warm"',
		/from 0 to 2/,
	],
	[
		'temperature 3',
		options({ temperature: 3 }),
		'Temperature: must be from 0 to 2, got 3',
		/from 0 to 2/,
	],
	[
		'temperature -0.1',
		options({ temperature: -0.1 }),
		'Temperature: must be from 0 to 2, got -0.1',
		/from 0 to 2/,
	],
	[
		'temperature null',
		options({ temperature: '={{ null }}' }),
		'Temperature: must be a number from 0 to 2, got null',
		/from 0 to 2/,
	],
	[
		'temperature from a field the item lacks',
		options({ temperature: '={{ $json.temperature }}' }),
		'Temperature: is empty because its expression {{ $json.temperature }} finds no field "temperature" in the input item',
		optionFix('Temperature'),
	],
	[
		'top_p as a word',
		options({ topP: 'most' }),
		'Top P: must be a number from 0 to 1, got the text "most"',
		/from 0 to 1/,
	],
	['top_p -1', options({ topP: -1 }), 'Top P: must be from 0 to 1, got -1', /from 0 to 1/],
	['top_p 1.5', options({ topP: 1.5 }), 'Top P: must be from 0 to 1, got 1.5', /from 0 to 1/],
	[
		'max_tokens as a word',
		options({ maxTokens: 'many' }),
		'Maximum Tokens: must be a whole number of at least 1, got the text "many"',
		/whole number/,
	],
	[
		'max_tokens 0',
		options({ maxTokens: 0 }),
		'Maximum Tokens: must be a whole number of at least 1, got 0',
		/whole number/,
	],
	[
		'max_tokens 1.5',
		options({ maxTokens: 1.5 }),
		'Maximum Tokens: must be a whole number of at least 1, got 1.5',
		/whole number/,
	],
	[
		'max_tokens from a field the item lacks',
		options({ maxTokens: '={{ $json.limits.tokens }}' }),
		'Maximum Tokens: is empty because its expression {{ $json.limits.tokens }} finds no "tokens" in the input item\'s field "limits"',
		optionFix('Maximum Tokens'),
		jsonItems({ limits: {} }),
	],
	[
		'Max Retries -1',
		options({ maxRetries: -1 }),
		'Max Retries: must be a whole number of at least 0, got -1',
		/0 to never retry/,
	],
	[
		'Timeout 0',
		options({ timeout: 0 }),
		'Timeout (Ms): must be a whole number of at least 1, got 0',
		/milliseconds/,
	],
	[
		'Stream as a word',
		options({ stream: '={{ "yes" }}' }),
		'Stream: must be true or false, got the text "yes"',
		/Switch Options > Stream on or off/,
	],
	[
		'Stream from a field the item lacks',
		options({ stream: '={{ $json.stream }}' }),
		'Stream: is empty because its expression {{ $json.stream }} finds no field "stream" in the input item',
		optionFix('Stream'),
	],
	[
		'Response Format unknown',
		simple({ responseFormat: '={{ "xml" }}' }),
		'Response Format: has the unknown value "xml"',
		/Choose Text, JSON Object, JSON Schema/,
	],
	[
		'Response Format from a field the item lacks',
		simple({ responseFormat: '={{ $json.format }}' }),
		'Response Format: is empty because its expression {{ $json.format }} finds no field "format" in the input item',
		/Map a field that holds the value, or set Response Format without an expression/,
	],
	[
		'JSON Schema missing',
		simple({ responseFormat: 'jsonSchema', jsonSchema: '' }),
		'JSON Schema: is not set, and Response Format "JSON Schema" needs it',
		/Fill in JSON Schema, below Response Format/,
	],
	[
		'JSON Schema with a misspelled type',
		simple({
			responseFormat: 'jsonSchema',
			jsonSchema: '{"type": "object", "properties": {"age": {"type": "integr"}}}',
		}),
		'JSON Schema: is not a valid schema: properties.age.type: "integr" is not a JSON Schema type; did you mean "integer"?',
		/Give a JSON Schema object/,
	],
	[
		'Repair Attempts 6',
		simple({ responseFormat: 'jsonObject', repairAttempts: 6 }),
		'Repair Attempts: must be a whole number from 0 to 5, got 6',
		/0 switches repairs off/,
	],
	[
		'message rows: none',
		simple({ promptType: 'messages', messages: {} }),
		'Messages: has no rows',
		/Add Message/,
	],
	[
		'message rows: unknown role',
		rows({ role: 'robot', content: 'Hi' }),
		'Messages row 1: has the unknown role "robot"',
		/system, user or assistant/,
	],
	[
		'message rows: no content',
		rows({ role: 'user', content: '' }),
		'Messages row 1: has no content',
		/Type the message text/,
	],
	[
		'message rows: content from a field the item lacks',
		rows(
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: '={{ $json.question }}' },
		),
		'Messages row 2 > Content: is empty because its expression {{ $json.question }} finds no field "question" in the input item',
		mapFix,
	],
	[
		'message rows: content as an object',
		rows({ role: 'user', content: '={{ { text: "Hi" } }}' }),
		'Messages row 1: content must be text, got an object',
		/Type the message text/,
	],
	['JSON messages: empty array', messagesJson('[]'), 'Messages (JSON): is an empty array', jsonFix],
	[
		'JSON messages: not JSON',
		messagesJson('[{"role": "user"'),
		`Messages (JSON): is not valid JSON (${jsonReason('[{"role": "user"')})`,
		jsonFix,
	],
	[
		'JSON messages: from a field the item lacks',
		messagesJson('={{ $json.messages }}'),
		'Messages (JSON): is empty because its expression {{ $json.messages }} finds no field "messages" in the input item',
		/Connect a node whose items hold the conversation/,
		jsonItems({ text: 'Hi' }),
	],
	[
		'JSON messages: an object',
		messagesJson('={{ $json }}'),
		'Messages (JSON): must be an array of messages, got an object',
		jsonFix,
		jsonItems({ role: 'user' }),
	],
	[
		'JSON messages: unknown role',
		messagesJson('[{"role": "wizard", "content": "Hi"}]'),
		'Messages (JSON): messages[0] has the unknown role "wizard"',
		/system, developer, user, assistant or tool/,
	],
	[
		'JSON messages: no role',
		messagesJson('[{"content": "Hi"}]'),
		'Messages (JSON): messages[0] has no "role"',
		/system, developer, user, assistant or tool/,
	],
	[
		'JSON messages: a message that is text',
		messagesJson('["Hi"]'),
		'Messages (JSON): messages[0] must be an object, got the text "Hi"',
		jsonFix,
	],
	[
		'JSON messages: content part of unknown type',
		messagesJson('[{"role": "user", "content": [{"type": "video", "video": "..."}]}]'),
		'Messages (JSON): messages[0].content[0] is a "video" part, which this node cannot send (only "text", "image_url" and "file" parts)',
		partsFix,
	],
	[
		'JSON messages: content part without type',
		messagesJson('[{"role": "user", "content": [{"text": "Hi"}]}]'),
		'Messages (JSON): messages[0].content[0] has no "type"',
		partsFix,
	],
	[
		'JSON messages: image_url given as a string',
		messagesJson(
			'[{"role": "user", "content": [{"type": "image_url", "image_url": "https://example.com/a.png"}]}]',
		),
		'Messages (JSON): messages[0].content[0].image_url must be an object with a url, got the text "https://example.com/a.png"',
		/\{"type": "image_url", "image_url": \{"url"/,
	],
	[
		'JSON messages: tool message without tool_call_id',
		messagesJson('[{"role": "user", "content": "Hi"}, {"role": "tool", "content": "42"}]'),
		'Messages (JSON): messages[1] is a tool result without tool_call_id',
		/Set tool_call_id/,
	],
	[
		'JSON messages: assistant tool call without id',
		messagesJson(
			'[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": null, "tool_calls": [{"type": "function", "function": {"name": "weather", "arguments": "{}"}}]}]',
		),
		'Messages (JSON): messages[1].tool_calls[0] must have an id and a function with a name',
		/Append the "message" output/,
	],
	[
		'tool schema not of type object',
		withTools({ ...weather, parameters: '{"type": "string"}' }),
		'Tools row 1 > Parameters: has "type": "string" at the top, but the arguments are an object',
		schemaFix,
	],
	[
		'tool schema without a type',
		withTools({ ...weather, parameters: '{"properties": {}}' }),
		'Tools row 1 > Parameters: has no "type": the arguments are an object, so the schema needs "type": "object" at the top',
		schemaFix,
	],
	[
		'tool schema with a misspelled type at the top',
		withTools({ ...weather, parameters: '{"type": "objet", "properties": {}}' }),
		'Tools row 1 > Parameters: is not a valid schema: type: "objet" is not a JSON Schema type; did you mean "object"?',
		schemaFix,
	],
	[
		'tool schema with a misspelled type deep inside',
		withTools({
			...weather,
			parameters:
				'{"type": "object", "properties": {"place": {"type": "object", "properties": {"city": {"type": "strin"}}}}}',
		}),
		'Tools row 1 > Parameters: is not a valid schema: properties.place.properties.city.type: "strin" is not a JSON Schema type; did you mean "string"?',
		schemaFix,
	],
	[
		'tools JSON with a misspelled type in array items',
		simple({
			toolsMode: 'json',
			toolsJson: JSON.stringify([
				{
					type: 'function',
					function: {
						name: 'weather',
						parameters: {
							type: 'object',
							properties: { cities: { type: 'array', items: { type: 'strng' } } },
						},
					},
				},
			]),
		}),
		'Tools (JSON): tools[0].function.parameters: is not a valid schema: properties.cities.items.type: "strng" is not a JSON Schema type; did you mean "string"?',
		schemaFix,
	],
	[
		'tool schema requires a property it does not define',
		withTools({
			...weather,
			parameters:
				'{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["cty"]}',
		}),
		'Tools row 1 > Parameters: is not a valid schema: required[0]: "cty" is not defined in "properties"; did you mean "city"?',
		schemaFix,
	],
	[
		'tool with a bad function name',
		withTools({ ...weather, name: 'get weather' }),
		'Tools row 1 > Name: "get weather" is not a valid function name',
		/1 to 64 letters/,
	],
	[
		'tool without a name',
		withTools({ ...weather, name: '' }),
		'Tools row 1 > Name: is empty',
		/Give the function a name/,
	],
	[
		'tool name from a field the item lacks',
		withTools({ ...weather, name: '={{ $json.function }}' }),
		'Tools row 1 > Name: is empty because its expression {{ $json.function }} finds no field "function" in the input item',
		/Map a field the input item has/,
	],
	[
		'two tools with one name',
		withTools(weather, weather),
		'Tools: defines "weather" twice',
		/its own name/,
	],
	[
		'tools JSON not an array',
		simple({ toolsMode: 'json', toolsJson: '{"type": "function"}' }),
		'Tools (JSON): must be an array of tools, got an object',
		/protocol tools array/,
	],
	[
		'tools JSON from a field the item lacks',
		simple({ toolsMode: 'json', toolsJson: '={{ $json.tools }}' }),
		'Tools (JSON): is empty because its expression {{ $json.tools }} finds no field "tools" in the input item',
		/Map a field that holds the tools array/,
	],
	[
		'tool choice names a function that is not among the tools',
		simple({ ...toolRows(weather), toolChoice: 'function', toolChoiceFunction: 'clock' }),
		'Function Name or ID: "clock" is not one of the defined tools (weather)',
		/one of the tools defined above/,
	],
	[
		'tool choice from a field the item lacks',
		simple({
			...toolRows(weather),
			toolChoice: 'function',
			toolChoiceFunction: '={{ $json.tool }}',
		}),
		'Function Name or ID: is empty because its expression {{ $json.tool }} finds no field "tool" in the input item',
		/Choose one of the tools/,
	],
	...(
		[
			['messages', 'the node builds from its prompt or messages'],
			['stream', 'Options > Stream sets'],
			['model', 'the Model field sets'],
			['tools', 'the node builds from its tools'],
			['stream_options', 'Options > Stream Usage sets'],
		] as const
	).map(
		([field, setBy]): Row => [
			`Extra Body sets "${field}"`,
			options({ extraBody: `{"${field}": null}` }),
			`Extra Body: sets "${field}", which ${setBy}`,
			removeFix(field),
		],
	),
	[
		'Extra Body sets what Temperature sets',
		options({ temperature: 0.2, extraBody: '{"temperature": 0.9, "seed": 7}' }),
		'Extra Body: sets "temperature", which Options > Temperature sets',
		removeFix('temperature'),
	],
	[
		'Extra Body sets what Maximum Tokens and Top P set',
		options({ maxTokens: 10, topP: 0.5, extraBody: '{"max_tokens": 20, "top_p": 1}' }),
		'Extra Body: sets "max_tokens", which Options > Maximum Tokens sets, and "top_p", which Options > Top P sets',
		removeFix('max_tokens", "top_p'),
	],
	[
		'Extra Body sets what Response Format sets',
		simple({
			responseFormat: 'jsonObject',
			options: { extraBody: '{"response_format": {"type": "text"}}' },
		}),
		'Extra Body: sets "response_format", which Response Format sets',
		removeFix('response_format'),
	],
	[
		'Extra Body not JSON',
		options({ extraBody: '{seed: 7}' }),
		`Extra Body: is not valid JSON (${jsonReason('{seed: 7}')})`,
		/\{"seed": 7\}/,
	],
	[
		'Extra Body an array',
		options({ extraBody: '[{"seed": 7}]' }),
		'Extra Body: must be a JSON object, got an array',
		/\{"seed": 7\}/,
	],
	[
		'image data URI not base64',
		imageUrls('data:image/png,hello'),
		'Image URLs: "data:image/png,hello…" is not a base64 data URI',
		/data:<image type>;base64,<data>/,
	],
	[
		'image data URI of a text file',
		imageUrls(dataUri(Buffer.from('just some text'), 'image/png')),
		'Image URLs: the data URI is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name)',
		/convert other formats/,
	],
	[
		'image URL with an ftp scheme',
		imageUrls('ftp://example.com/cat.png'),
		'Image URLs: "ftp://example.com/cat.png" is not an http(s) URL or a data URI',
		/public image URL/,
	],
	[
		'image data URI with a space inside',
		imageUrls(`data:image/png;base64,${base64Png.slice(0, 20)} ${base64Png.slice(20)}`),
		`Image URLs: the data URI "data:image/png;base64,${base64Png.slice(0, 18)}…" has a space inside`,
		/A data URI is one run without spaces/,
	],
	[
		'image URL with a space inside',
		imageUrls('https://example.com/my cat.png'),
		'Image URLs: "https://example.com/my cat.png" has a space inside, but URLs are one per line',
		urlFix,
	],
	[
		'two image URLs on one line, by a space',
		imageUrls('https://example.com/1.png https://example.com/2.png'),
		'Image URLs: "https://example.com/1.png https://example.com/2.png" holds more than one URL',
		urlsFix,
	],
	[
		'two image URLs on one line, by a comma',
		imageUrls('https://example.com/1.png,https://example.com/2.png'),
		'Image URLs: "https://example.com/1.png,https://example.com/2.png" holds more than one URL',
		urlsFix,
	],
	[
		'two image URLs on one line, by a comma and a space',
		imageUrls('https://example.com/1.png, https://example.com/2.png'),
		'Image URLs: "https://example.com/1.png, https://example.com/2.png" holds more than one URL',
		urlsFix,
	],
	[
		'image URLs as a number',
		imageUrls('={{ 42 }}'),
		'Image URLs: must be text, got 42',
		/one per line/,
	],
	[
		'base64 in Image URLs',
		imageUrls(base64Png),
		`Image URLs: holds what looks like base64 image data without a data: prefix ("${base64Png.slice(0, 16)}…")`,
		/as a data URI/,
	],
	[
		'binary property that does not exist',
		binaryProperty('image'),
		'Image Binary Properties: the item has no binary property "image" (it has no binary data)',
		/Read Files from Disk/,
	],
	[
		'a PDF in a binary property',
		binaryProperty('data'),
		'Image Binary Properties: binary property "data" (scan.pdf) is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name)',
		/convert other formats/,
		binaryItem(Buffer.from('%PDF-1.7 a scanned page'), 'image/png', 'scan.pdf'),
	],
	[
		'an image over Max Image Size',
		binaryProperty('data', { options: { maxImageSize: 1 } }),
		'Image Binary Properties: binary property "data" (big.png) is 1.5 MB, above the limit of 1.0 MB',
		/raise Options > Max Image Size/,
		binaryItem(bigPng, 'image/png', 'big.png'),
	],
	[
		'Max Image Size 0',
		options({ maxImageSize: 0 }),
		'Max Image Size (MB): must be from 0.001 to 1024, got 0',
		/size in megabytes/,
	],
];

describe('bad input is refused with the field, the item and the fix, and nothing is sent', () => {
	test.each(table)('%s', async (_name, parameters, message, fix, items = jsonItems({})) => {
		const { outputs, error, status } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters,
			items,
			settings: { onError: 'continueRegularOutput' },
		});
		expect({ error, status }).toEqual({ error: undefined, status: 'success' });
		// One error item on Reply in place of the input item (none on Tool Calls), with no reply fields.
		expect(outputs.flat()).toHaveLength(1);
		expect(outputs[0]).toHaveLength(1);
		const { json, pairedItem } = outputs[0][0];
		expect(pairedItem).toEqual({ item: 0 });
		expect(Object.keys(json).sort()).toEqual(['error', 'error_details']);
		expect(json.error).toBe(`${message} (item 0)`);
		expect((json.error_details as IDataObject).description).toMatch(fix);
		expect(await service().requests()).toEqual([]);
	});
});

describe('a bad credential fails before anything is sent: the node (Stop Workflow), or every item (Continue)', () => {
	test.each([
		[
			'Base URL without a scheme',
			keys.default,
			() => service().baseUrl.replace(/^http:\/\//, ''),
			(baseUrl: string) => `The Base URL "${baseUrl}" is not an http:// or https:// address`,
			/enter the full Base URL/,
		],
		[
			'API key with a line break inside',
			'sk-example-de\nfault',
			() => service().baseUrl,
			() => 'The API key in the credential contains spaces or line breaks',
			/Copy the key again/,
		],
	])('%s', async (_name, apiKey, baseUrl, message, fix) => {
		const url = baseUrl();
		const engine = engineWith(apiKey, url);
		const stopped = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hello'),
			items: jsonItems({}, {}),
		});
		expect(stopped.status).toBe('error');
		expect(stopped.error?.message).toBe(message(url));
		expect(stopped.error?.description).toMatch(fix);
		const continued = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hello'),
			items: jsonItems({}, {}),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(continued.status).toBe('success');
		expect(continued.outputs[0].map((item) => item.json.error)).toEqual([
			`${message(url)} (item 0)`,
			`${message(url)} (item 1)`,
		]);
		expect((continued.outputs[0][1].json.error_details as IDataObject).description).toMatch(fix);
		expect(await service().requests()).toEqual([]);
	});
});
