import { itemRequest } from '../../../nodes/ChatCompletion/request/item-request';
import { splitList } from '../../../engine/values';
import { urlLines } from '../../../nodes/ChatCompletion/request/images';
import { planJobs, toolAnswer } from '../../../nodes/ChatCompletion/execute/plan-jobs';
import type { ProtocolToolCall } from '../../../engine/protocol';
import type { ChatInput } from '../../../nodes/ChatCompletion/request/input';
import { conformanceErrors } from '../../support/conformance.cts';
import { dataUri, placeholderOf, pngHeader } from '../../support/images.cts';

const png = pngHeader(2, 3);
const pdf = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj');
const simple = (extra: Partial<ChatInput>): ChatInput => ({
	model: 'vision-1',
	promptType: 'simple',
	prompt: 'What is this?',
	options: {},
	...extra,
});
const binaries = (loaded: Record<string, Buffer>) => ({
	available: Object.keys(loaded),
	loaded: Object.fromEntries(
		Object.entries(loaded).map(([name, bytes]) => [
			name,
			{ bytes, mimeType: 'image/png', fileName: `${name}.png` },
		]),
	),
});
const failure = (input: ChatInput): { message: string; fix: string } => {
	try {
		itemRequest(input);
	} catch (error) {
		return error as { message: string; fix: string };
	}
	throw new Error('no error');
};

describe('images', () => {
	test('binary property names split on commas, lines and spaces', () => {
		expect(splitList('data, photo\nscan  page', 'f')).toEqual(['data', 'photo', 'scan', 'page']);
	});

	test('image URLs are one per line; a comma belongs to the URL', () => {
		const uri = dataUri(png);
		expect(urlLines(`  https://a.example/1.png?size=2,3\r\n\n${uri}  \n`, 'f')).toEqual([
			'https://a.example/1.png?size=2,3',
			uri,
		]);
		expect(urlLines(['https://a.example/1.png', 'https://a.example/2.png'], 'f')).toHaveLength(2);
	});

	test('URL, data URI and binary images become parts after the text, several per message', () => {
		const { body } = itemRequest(
			simple({
				imageUrls: `https://images.example/cat.png\n${dataUri(png, 'image/jpeg')}`,
				imageBinaryProperties: 'data, photo',
				imageDetail: 'high',
				binaries: binaries({ data: png, photo: png }),
			}),
		);
		const content = body.messages[0].content as Array<{
			type: string;
			image_url?: { url: string; detail?: string };
		}>;
		expect(content.map((part) => part.type)).toEqual([
			'text',
			'image_url',
			'image_url',
			'image_url',
			'image_url',
		]);
		expect(content[1].image_url).toEqual({ url: 'https://images.example/cat.png', detail: 'high' });
		// The MIME type comes from the bytes, whatever the data URI declared.
		expect(content[2].image_url?.url).toBe(dataUri(png));
		expect(content[3].image_url?.url).toBe(dataUri(png));
		expect(conformanceErrors(body)).toEqual([]);
	});

	test('the conversation kept for the output names binary properties; the data URI becomes one', () => {
		const { body, conversation, added } = itemRequest(
			simple({
				imageUrls: `https://images.example/cat.png\n${dataUri(png, 'image/jpeg')}`,
				imageBinaryProperties: 'data, image_1, data',
				binaries: binaries({ data: png, image_1: png }),
			}),
		);
		expect(conversation[0].content).toEqual([
			{ type: 'text', text: 'What is this?' },
			{ type: 'image_url', image_url: { url: 'https://images.example/cat.png' } },
			{ type: 'image_url', image_url: { url: placeholderOf('image_2', png) } },
			{ type: 'image_url', image_url: { url: placeholderOf('data', png) } },
			{ type: 'image_url', image_url: { url: placeholderOf('image_1', png) } },
			{ type: 'image_url', image_url: { url: placeholderOf('data', png) } },
		]);
		expect(added).toEqual([
			{ name: 'image_2', mimeType: 'image/png', fileName: 'image_2.png', bytes: png },
		]);
		expect(JSON.stringify(body)).not.toContain('n8n-binary:');
		const urls = (body.messages[0].content as Array<{ image_url?: { url: string } }>).map(
			(part) => part.image_url?.url,
		);
		expect(urls).toEqual([
			undefined,
			'https://images.example/cat.png',
			...Array(4).fill(dataUri(png)),
		]);
	});

	test('Messages JSON: placeholders are read from the binary data and checked; a missing one names the fix', () => {
		const messagesJson = [
			{
				role: 'user',
				content: [{ type: 'image_url', image_url: { url: 'n8n-binary:data', detail: 'low' } }],
			},
		];
		const { body, conversation } = itemRequest({
			model: 'vision-1',
			promptType: 'json',
			messagesJson,
			options: {},
			binaries: binaries({ data: png }),
		});
		expect(conversation).toEqual(messagesJson);
		expect(body.messages[0].content).toEqual([
			{ type: 'image_url', image_url: { url: dataUri(png), detail: 'low' } },
		]);
		const missing = failure({
			model: 'vision-1',
			promptType: 'json',
			messagesJson,
			options: {},
			binaries: binaries({ photo: png }),
		});
		expect(missing.message).toBe(
			'Messages (JSON): messages[0].content[0] is the image "n8n-binary:data", but the item has no binary property "data" (it has: photo)',
		);
		expect(missing.fix).toMatch(/keep that binary data on the item up to this node/);
		expect(
			failure({
				model: 'vision-1',
				promptType: 'json',
				messagesJson,
				options: {},
				binaries: binaries({ data: pdf }),
			}).message,
		).toMatch(/^Messages \(JSON\): binary property "data" \(data.png\) is not a PNG/);
	});

	test('images on message rows go on user rows only', () => {
		const rows = (role: string) => ({
			values: [{ role, content: 'Look', imageUrls: 'https://images.example/a.png' }],
		});
		expect(
			itemRequest({ model: 'm', promptType: 'messages', messages: rows('user'), options: {} }).body
				.messages[0].content,
		).toHaveLength(2);
		expect(
			failure({ model: 'm', promptType: 'messages', messages: rows('assistant'), options: {} })
				.message,
		).toBe(
			'Messages row 1: has images or files, but only user messages may carry them (this row is assistant)',
		);
	});

	test.each([
		[
			'a missing binary property lists the ones there are',
			simple({ imageBinaryProperties: 'image', binaries: binaries({ data: png, file: png }) }),
			'Image Binary Properties: the item has no binary property "image" (it has: data, file)',
		],
		[
			'an item without binary data says so',
			simple({ imageBinaryProperties: 'data' }),
			'Image Binary Properties: the item has no binary property "data" (it has no binary data)',
		],
		[
			'a PDF in a binary property is refused by its bytes',
			simple({
				imageBinaryProperties: 'data',
				binaries: {
					available: ['data'],
					loaded: { data: { bytes: pdf, mimeType: 'image/png', fileName: 'scan.pdf' } },
				},
			}),
			'Image Binary Properties: binary property "data" (scan.pdf) is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name)',
		],
		[
			'base64 typed where a property name belongs',
			simple({ imageBinaryProperties: png.toString('base64').repeat(3) }),
			'Image Binary Properties: holds what looks like base64 image data',
		],
		[
			'base64 without data: prefix in Image URLs',
			simple({ imageUrls: png.toString('base64').repeat(3) }),
			'Image URLs: holds what looks like base64 image data without a data: prefix',
		],
		[
			'a malformed data URI',
			simple({ imageUrls: 'data:image/png,notbase64' }),
			'Image URLs: "data:image/png,notbase64…" is not a base64 data URI',
		],
		[
			'a data URI that is not an image',
			simple({ imageUrls: dataUri(pdf) }),
			'Image URLs: the data URI is not a PNG, JPEG, GIF or WEBP image',
		],
		[
			'something that is no URL',
			simple({ imageUrls: 'ftp://files.example/cat.png' }),
			'Image URLs: "ftp://files.example/cat.png" is not an http(s) URL or a data URI',
		],
		[
			'an image above the size guard',
			simple({
				imageUrls: dataUri(Buffer.concat([png, Buffer.alloc(3000)])),
				options: { maxImageSize: 0.002 },
			}),
			'Image URLs: the data URI is 0.0 MB, above the limit of 0.0 MB',
		],
	])('%s', (_name, input, message) => {
		expect(failure(input).message.startsWith(message)).toBe(true);
	});
});

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('tools', () => {
	test('rows and JSON give the same protocol tools; Auto is not sent, the other choices are', () => {
		const fromRows = itemRequest(
			simple({
				model: 'tools-1',
				toolsMode: 'define',
				tools: {
					values: [
						{ name: 'get_weather', description: 'Weather', parameters: JSON.stringify(weather) },
					],
				},
				toolChoice: 'auto',
			}),
		).body;
		const fromJson = itemRequest(
			simple({
				model: 'tools-1',
				toolsMode: 'json',
				toolsJson: [
					{
						type: 'function',
						function: { name: 'get_weather', description: 'Weather', parameters: weather },
					},
				],
				toolChoice: 'auto',
			}),
		).body;
		expect(fromRows.tools).toEqual(fromJson.tools);
		expect(fromRows).not.toHaveProperty('tool_choice');
		for (const choice of ['none', 'required'] as const) {
			expect(
				itemRequest(simple({ toolsMode: 'json', toolsJson: fromJson.tools, toolChoice: choice }))
					.body.tool_choice,
			).toBe(choice);
		}
		const forced = itemRequest(
			simple({
				toolsMode: 'json',
				toolsJson: fromJson.tools,
				toolChoice: 'function',
				toolChoiceFunction: 'get_weather',
			}),
		).body;
		expect(forced.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
		for (const body of [fromRows, forced]) expect(conformanceErrors(body)).toEqual([]);
	});

	test.each([
		[
			'bad name',
			{
				toolsMode: 'define',
				tools: { values: [{ name: 'get weather', parameters: '{"type":"object"}' }] },
			},
			'Tools row 1 > Name: "get weather" is not a valid function name',
		],
		[
			'schema not an object schema',
			{ toolsMode: 'define', tools: { values: [{ name: 'f', parameters: '{"type":"string"}' }] } },
			'Tools row 1 > Parameters: has "type": "string" at the top, but the arguments are an object',
		],
		[
			'a misspelled type deep inside',
			{
				toolsMode: 'define',
				tools: {
					values: [
						{
							name: 'f',
							parameters:
								'{"type":"object","properties":{"place":{"type":"object","properties":{"city":{"type":"strin"}}}}}',
						},
					],
				},
			},
			'Tools row 1 > Parameters: is not a valid schema: properties.place.properties.city.type: "strin" is not a JSON Schema type; did you mean "string"?',
		],
		[
			'a misspelled type at the top',
			{
				toolsMode: 'json',
				toolsJson: [{ type: 'function', function: { name: 'f', parameters: { type: 'objct' } } }],
			},
			'Tools (JSON): tools[0].function.parameters: is not a valid schema: type: "objct" is not a JSON Schema type; did you mean "object"?',
		],
		[
			'required without properties',
			{
				toolsMode: 'define',
				tools: { values: [{ name: 'f', parameters: '{"type":"object","required":["city"]}' }] },
			},
			'Tools row 1 > Parameters: "required" names "city", which "properties" does not define',
		],
		[
			'required names a missing property',
			{
				toolsMode: 'define',
				tools: {
					values: [
						{ name: 'f', parameters: '{"type":"object","properties":{},"required":["city"]}' },
					],
				},
			},
			'Tools row 1 > Parameters: is not a valid schema: required[0]: "city" is not defined in "properties"',
		],
		[
			'parameters not JSON',
			{ toolsMode: 'define', tools: { values: [{ name: 'f', parameters: '{type: object}' }] } },
			'Tools row 1 > Parameters: is not valid JSON',
		],
		['no tools', { toolsMode: 'define', tools: {} }, 'Tools: defines no tool'],
		[
			'duplicate names',
			{
				toolsMode: 'json',
				toolsJson: [
					{ type: 'function', function: { name: 'f' } },
					{ type: 'function', function: { name: 'f' } },
				],
			},
			'Tools: defines "f" twice',
		],
		[
			'JSON tools not an array',
			{ toolsMode: 'json', toolsJson: '{}' },
			'Tools (JSON): must be an array of tools, got an object',
		],
		[
			'named function not defined',
			{
				toolsMode: 'json',
				toolsJson: [{ type: 'function', function: { name: 'f' } }],
				toolChoice: 'function',
				toolChoiceFunction: 'g',
			},
			'Function Name or ID: "g" is not one of the defined tools (f)',
		],
	])('%s', (_name, extra, message) => {
		expect(failure(simple(extra as Partial<ChatInput>)).message.startsWith(message)).toBe(true);
	});
});

describe('tool results: the items answering one reply make one request', () => {
	const calls: ProtocolToolCall[] = [
		{
			id: 'call_a',
			type: 'function',
			function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
		},
		{
			id: 'call_b',
			type: 'function',
			function: { name: 'get_time', arguments: '{"city":"Paris"}' },
		},
	];
	const conversation = [
		{ role: 'user', content: 'Weather and time in Paris?' },
		{ role: 'assistant', content: null, tool_calls: calls },
	];
	const prepared = (itemIndex: number, toolCallId: string, result: unknown) => {
		const request = itemRequest({
			model: 'tools-1',
			promptType: 'json',
			messagesJson: conversation,
			options: {},
		});
		return { itemIndex, request, answer: toolAnswer(toolCallId, result, calls) };
	};

	test('results in any order are sent once, in the order of the calls', () => {
		const jobs = planJobs([prepared(0, 'call_b', '12:00'), prepared(1, 'call_a', { celsius: 21 })]);
		expect(jobs).toHaveLength(1);
		expect(jobs[0].items).toEqual([0, 1]);
		expect(jobs[0].request?.body.messages.slice(2)).toEqual([
			{ role: 'tool', tool_call_id: 'call_a', content: '{"celsius":21}' },
			{ role: 'tool', tool_call_id: 'call_b', content: '12:00' },
		]);
		expect(conformanceErrors(jobs[0].request?.body)).toEqual([]);
	});

	test('a missing result fails the group with the fix', () => {
		const [job] = planJobs([prepared(3, 'call_a', 'sunny')]);
		expect((job.error as Error).message).toBe(
			'Tool Result: the model asked for 2 tool calls, but no item answers call_b (get_time)',
		);
		expect((job.error as { fix: string }).fix).toMatch(/Merge node \(Append\)/);
	});

	test('an unknown call id and an empty result are refused', () => {
		expect(() => toolAnswer('call_x', 'r', calls)).toThrow(
			'Tool Call ID: the text "call_x" is not one of the tool calls the conversation ends with: call_a (get_weather), call_b (get_time)',
		);
		expect(() => toolAnswer('call_a', undefined, calls)).toThrow(
			'Tool Result: is empty for tool call call_a (get_weather)',
		);
	});

	test('other items stay one request each, in order', () => {
		const plain = { itemIndex: 1, request: itemRequest(simple({})) };
		const jobs = planJobs([prepared(0, 'call_a', 'x'), plain, prepared(2, 'call_b', 'y')]);
		expect(jobs.map((job) => job.items)).toEqual([[0, 2], [1]]);
	});
});
