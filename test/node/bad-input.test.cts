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
const rows = (...values: INodeParameters[]) => simple({ promptType: 'messages', messages: { values } });
const messagesJson = (value: string) => simple({ promptType: 'json', messagesJson: value });
const city = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const toolRows = (...values: INodeParameters[]) => ({ toolsMode: 'define', tools: { values } });
const weather = { name: 'weather', description: 'Weather in a city', parameters: JSON.stringify(city) };
const withTools = (...values: INodeParameters[]) => simple(toolRows(...values));
const imageUrls = (value: string) => simple({ imageUrls: value });
const binaryProperty = (name: string, extra: INodeParameters = {}) => simple({ imageBinaryProperties: name, ...extra });

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
const reservedFix = /Set the model, messages and tools with the node's own fields/;

type Row = [name: string, parameters: INodeParameters, message: string, fix: RegExp, items?: INodeExecutionData[]];

const table: Row[] = [
	['model as an object', modelId('={{ { id: "echo-1" } }}'), 'Model: must be text, got an object', /Choose a model from the list/],
	['model as a number', modelId('={{ 42 }}'), 'Model: must be text, got number 42', /Choose a model from the list/],
	// n8n itself refuses an empty Model field; an expression can still give an empty ID.
	['model empty', modelId('={{ $json.model }}'), 'Model: is empty', /switch to "ID" and type the model ID/, jsonItems({ model: '' })],
	['model with spaces', modelId('echo 1'), 'Model: "echo 1" contains spaces', /Model IDs have no spaces/],
	['prompt as an object', simpleParameters('={{ { text: "Hi" } }}'), 'User Prompt: must be text, got an object', /JSON\.stringify/],
	['prompt as an array', simpleParameters('={{ ["Hi"] }}'), 'User Prompt: must be text, got an array', /JSON\.stringify/],
	['prompt empty', simpleParameters('  '), 'User Prompt: is empty', /Type a prompt/],
	['system message as an object', simple({ systemMessage: '={{ { role: "system" } }}' }), 'System Message: must be text, got an object', /JSON\.stringify/],
	['temperature as a word', options({ temperature: 'warm' }), 'Temperature: must be a number from 0 to 2, got the text "warm"', /from 0 to 2/],
	['temperature 3', options({ temperature: 3 }), 'Temperature: must be from 0 to 2, got 3', /from 0 to 2/],
	['temperature -0.1', options({ temperature: -0.1 }), 'Temperature: must be from 0 to 2, got -0.1', /from 0 to 2/],
	['top_p as a word', options({ topP: 'most' }), 'Top P: must be a number from 0 to 1, got the text "most"', /from 0 to 1/],
	['top_p -1', options({ topP: -1 }), 'Top P: must be from 0 to 1, got -1', /from 0 to 1/],
	['top_p 1.5', options({ topP: 1.5 }), 'Top P: must be from 0 to 1, got 1.5', /from 0 to 1/],
	['max_tokens as a word', options({ maxTokens: 'many' }), 'Maximum Tokens: must be a whole number of at least 1, got the text "many"', /whole number/],
	['max_tokens 0', options({ maxTokens: 0 }), 'Maximum Tokens: must be a whole number of at least 1, got number 0', /whole number/],
	['max_tokens 1.5', options({ maxTokens: 1.5 }), 'Maximum Tokens: must be a whole number of at least 1, got number 1.5', /whole number/],
	['message rows: none', simple({ promptType: 'messages', messages: {} }), 'Messages: has no rows', /Add Message/],
	['message rows: unknown role', rows({ role: 'robot', content: 'Hi' }), 'Messages row 1: has the unknown role the text "robot"', /system, user or assistant/],
	['JSON messages: empty array', messagesJson('[]'), 'Messages (JSON): is an empty array', jsonFix],
	['JSON messages: not JSON', messagesJson('[{"role": "user"'), `Messages (JSON): is not valid JSON (${jsonReason('[{"role": "user"')})`, jsonFix],
	['JSON messages: unknown role', messagesJson('[{"role": "robot", "content": "Hi"}]'), 'Messages (JSON): messages[0].role is the text "robot"', /system, user, assistant or tool/],
	[
		'JSON messages: content part of unknown type',
		messagesJson('[{"role": "user", "content": [{"type": "audio", "audio": "..."}]}]'),
		'Messages (JSON): messages[0].content[0] has the unsupported type the text "audio"',
		partsFix,
	],
	[
		'JSON messages: image_url given as a string',
		messagesJson('[{"role": "user", "content": [{"type": "image_url", "image_url": "https://example.com/a.png"}]}]'),
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
		'Tools row 1 > Parameters: must be a JSON schema with "type": "object", got an object',
		schemaFix,
	],
	[
		'tool schema requires a property it does not define',
		withTools({ ...weather, parameters: '{"type": "object", "properties": {}, "required": ["city"]}' }),
		'Tools row 1 > Parameters: "required" names "city", which "properties" does not define',
		/Add those properties/,
	],
	['tool with a bad function name', withTools({ ...weather, name: 'get weather' }), 'Tools row 1 > Name: the text "get weather" is not a valid function name', /1 to 64 letters/],
	['two tools with one name', withTools(weather, weather), 'Tools: defines "weather" twice', /its own name/],
	['tools JSON not an array', simple({ toolsMode: 'json', toolsJson: '{"type": "function"}' }), 'Tools (JSON): must be an array of tools, got an object', /protocol tools array/],
	[
		'tool choice names a function that is not among the tools',
		simple({ ...toolRows(weather), toolChoice: 'function', toolChoiceFunction: 'clock' }),
		'Function Name: "clock" is not one of the defined tools (weather)',
		/one of the tools above/,
	],
	...['messages', 'stream', 'model', 'tools'].map(
		(field): Row => [`Extra Body sets "${field}"`, options({ extraBody: `{"${field}": null}` }), `Extra Body: may not set "${field}"`, reservedFix],
	),
	['Extra Body not JSON', options({ extraBody: '{seed: 7}' }), `Extra Body: is not valid JSON (${jsonReason('{seed: 7}')})`, /\{"seed": 7\}/],
	['Extra Body an array', options({ extraBody: '[{"seed": 7}]' }), 'Extra Body: must be a JSON object, got an array', /\{"seed": 7\}/],
	['image data URI not base64', imageUrls('data:image/png,hello'), 'Image URLs: "data:image/png,hello…" is not a base64 data URI', /data:<image type>;base64,<data>/],
	[
		'image data URI of a text file',
		imageUrls(dataUri(Buffer.from('just some text'), 'image/png')),
		'Image URLs: the data URI is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name)',
		/convert other formats/,
	],
	['image URL with an ftp scheme', imageUrls('ftp://example.com/cat.png'), 'Image URLs: "ftp://example.com/cat.png" is not an http(s) URL or a data URI', /public image URL/],
	[
		'base64 in Image URLs',
		imageUrls(base64Png),
		`Image URLs: holds what looks like base64 image data without a data: prefix ("${base64Png.slice(0, 16)}…")`,
		/as a data URI/,
	],
	['binary property that does not exist', binaryProperty('image'), 'Image Binary Properties: the item has no binary property "image" (it has no binary data)', /Read Files from Disk/],
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
	['Max Image Size 0', options({ maxImageSize: 0 }), 'Max Image Size (MB): must be from 0.001 to 1024, got 0', /size in megabytes/],
];

describe('bad input is refused with the field, the item and the fix, and nothing is sent', () => {
	test('the table covers at least 30 malformed inputs', () => {
		expect(table.length).toBeGreaterThanOrEqual(30);
	});

	test.each(table)('%s', async (_name, parameters, message, fix, items = jsonItems({})) => {
		const { outputs, error, status } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters,
			items,
			settings: { onError: 'continueRegularOutput' },
		});
		expect({ error, status }).toEqual({ error: undefined, status: 'success' });
		expect(outputs[0]).toHaveLength(1);
		const { json } = outputs[0][0];
		expect(json.error).toBe(`${message} (item 0)`);
		expect((json.error_details as IDataObject).description).toMatch(fix);
		expect(await service().requests()).toEqual([]);
	});
});

describe('a bad credential fails the whole node before anything is sent', () => {
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
		const { error, status } = await engineWith(apiKey, url).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hello'),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(status).toBe('error');
		expect(error?.message).toBe(message(url));
		expect(error?.description).toMatch(fix);
		expect(await service().requests()).toEqual([]);
	});
});
