import type { Message } from '@n8n/ai-node-sdk';

import { rememberCalls } from '../../../nodes/LmChatCompletions/model/call-memory';
import { protocolMessages } from '../../../nodes/LmChatCompletions/model/messages';
import { InputError } from '../../../engine/failures/errors';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/** An assistant message that only calls tools, as the AI Agent rebuilds it: no content, the call's id added to the arguments. */
const agentCall = (id: string, args: Record<string, unknown>, name = 'weather'): Message => ({
	role: 'assistant',
	content: [
		{ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify({ ...args, id }) },
	],
});

const result = (id: string, text: string): Message => ({
	role: 'tool',
	content: [{ type: 'tool-result', toolCallId: id, result: text }],
});

describe('SDK messages into protocol messages', () => {
	test('system, user and assistant text; reasoning is not sent back', () => {
		expect(
			protocolMessages([
				{ role: 'system', content: [{ type: 'text', text: 'Be brief' }] },
				user('Hi'),
				{
					role: 'assistant',
					content: [
						{ type: 'reasoning', text: 'The user greets' },
						{ type: 'text', text: 'Hello!' },
					],
				},
				user('Bye'),
			]),
		).toEqual([
			{ role: 'system', content: 'Be brief' },
			{ role: 'user', content: 'Hi' },
			{ role: 'assistant', content: 'Hello!' },
			{ role: 'user', content: 'Bye' },
		]);
	});

	test('images: a URL, a data URI, bytes with their type; detail kept', () => {
		const [message] = protocolMessages([
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'Compare' },
					{
						type: 'file',
						data: '',
						providerMetadata: { url: 'https://example.com/a.png', detail: 'low' },
					},
					{ type: 'file', data: 'data:image/png;base64,AAAA' },
					{ type: 'file', mediaType: 'image/jpeg', data: new Uint8Array([1, 2, 3]) },
				],
			},
		]);
		expect(message.content).toEqual([
			{ type: 'text', text: 'Compare' },
			{ type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
			{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
			{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AQID' } },
		]);
	});

	test('files: a PDF as base64, bytes or a data URI becomes a file part with its name; a text file goes as text', () => {
		const [message] = protocolMessages([
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'Read these' },
					{
						type: 'file',
						mediaType: 'application/pdf',
						data: 'JVBERi0=',
						providerMetadata: { filename: 'invoice.pdf' },
					},
					{
						type: 'file',
						mediaType: 'application/pdf',
						data: new Uint8Array([37, 80, 68, 70, 45]),
					},
					{
						type: 'file',
						data: '',
						providerMetadata: { url: 'data:application/pdf;base64,JVBERi0=' },
					},
					{
						type: 'file',
						mediaType: 'text/plain',
						data: 'SGVsbG8=',
						providerMetadata: { filename: 'hello.txt' },
					},
					{ type: 'file', data: 'data:text/csv;base64,YSxiCjEsMg==' },
				],
			},
		]);
		expect(message.content).toEqual([
			{ type: 'text', text: 'Read these' },
			{
				type: 'file',
				file: { filename: 'invoice.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
			},
			{
				type: 'file',
				file: { filename: 'attachment.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
			},
			{
				type: 'file',
				file: { filename: 'attachment.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
			},
			{ type: 'text', text: '<file name="hello.txt">\nHello\n</file>' },
			{ type: 'text', text: '<file>\na,b\n1,2\n</file>' },
		]);
	});

	test.each([
		[
			'audio',
			{ type: 'file', mediaType: 'audio/wav', data: 'UklG' },
			'holds a file of type audio/wav, which chat completions cannot carry (they take text, images and files such as PDFs)',
		],
		[
			'a PDF by link',
			{
				type: 'file',
				mediaType: 'application/pdf',
				data: '',
				providerMetadata: { url: 'https://example.com/a.pdf' },
			},
			"holds a file of type application/pdf given by a link (https://example.com/a.pdf), and chat completions take a file's data, not its address",
		],
		[
			'a file by id',
			{
				type: 'file',
				mediaType: 'application/pdf',
				data: '',
				providerMetadata: { fileId: 'file-1' },
			},
			"holds a file of type application/pdf given by a file id, and chat completions take the file's data",
		],
		[
			'bytes without a media type',
			{ type: 'file', data: 'JVBE' },
			'holds a file without a media type',
		],
		[
			'a PDF without data',
			{ type: 'file', mediaType: 'application/pdf', data: '' },
			'holds a file of type application/pdf without data',
		],
	])('%s is refused with the fix, before anything is sent', (_name, part, problem) => {
		expect(() => protocolMessages([{ role: 'user', content: [part as never] }])).toThrow(
			new InputError('Conversation', problem, ''),
		);
	});

	test("an assistant message that only calls tools has content null, and the agent's id key is not sent", () => {
		const messages = protocolMessages([
			user('Weather?'),
			agentCall('call_unknown_1', { city: 'Paris' }),
			result('call_unknown_1', 'sunny'),
		]);
		expect(messages[1]).toEqual({
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: 'call_unknown_1',
					type: 'function',
					function: { name: 'weather', arguments: '{"city":"Paris"}' },
				},
			],
		});
		expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_unknown_1', content: 'sunny' });
	});

	test('an id argument the model itself sent (not the call id) is kept', () => {
		const [, assistant] = protocolMessages([
			user('Order?'),
			{
				role: 'assistant',
				content: [
					{ type: 'tool-call', toolCallId: 'call_x', toolName: 'order', input: '{"id":"A-17"}' },
				],
			},
			result('call_x', 'shipped'),
		]);
		expect(assistant.tool_calls?.[0].function.arguments).toBe('{"id":"A-17"}');
	});

	test('remembered calls go back with the arguments exactly as the model sent them, parallel calls in one message', () => {
		rememberCalls([
			{
				id: 'call_p1',
				type: 'function',
				function: { name: 'weather', arguments: '{ "city": "Paris" }' },
			},
			{
				id: 'call_p2',
				type: 'function',
				function: { name: 'weather', arguments: '{ "city": "Tokyo" }' },
			},
		]);
		const messages = protocolMessages([
			user('Weather in Paris and Tokyo?'),
			agentCall('call_p1', { city: 'Paris' }),
			result('call_p1', 'sunny'),
			agentCall('call_p2', { city: 'Tokyo' }),
			result('call_p2', 'rain'),
		]);
		expect(messages).toEqual([
			{ role: 'user', content: 'Weather in Paris and Tokyo?' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_p1',
						type: 'function',
						function: { name: 'weather', arguments: '{ "city": "Paris" }' },
					},
					{
						id: 'call_p2',
						type: 'function',
						function: { name: 'weather', arguments: '{ "city": "Tokyo" }' },
					},
				],
			},
			{ role: 'tool', tool_call_id: 'call_p1', content: 'sunny' },
			{ role: 'tool', tool_call_id: 'call_p2', content: 'rain' },
		]);
	});

	test("a remembered reply's reasoning goes back on the message that made its calls (one or parallel), under its field names or as the <think> content; other messages get none", () => {
		rememberCalls(
			[
				{
					id: 'call_r1',
					type: 'function',
					function: { name: 'weather', arguments: '{"city":"Paris"}' },
				},
			],
			{ reasoning_content: 'Ask for Paris.' },
		);
		rememberCalls(
			[
				{
					id: 'call_r2',
					type: 'function',
					function: { name: 'weather', arguments: '{"city":"Rome"}' },
				},
				{
					id: 'call_r3',
					type: 'function',
					function: { name: 'weather', arguments: '{"city":"Oslo"}' },
				},
			],
			{ reasoning: 'Ask for both.' },
		);
		rememberCalls([
			{
				id: 'call_r4',
				type: 'function',
				function: { name: 'weather', arguments: '{"city":"Bern"}' },
			},
		]);
		rememberCalls(
			[
				{
					id: 'call_r5',
					type: 'function',
					function: { name: 'weather', arguments: '{"city":"Lima"}' },
				},
			],
			{ content: '<think>Ask for Lima.</think>' },
		);
		const messages = protocolMessages([
			user('Weather?'),
			agentCall('call_r1', { city: 'Paris' }),
			result('call_r1', 'sunny'),
			agentCall('call_r2', { city: 'Rome' }),
			result('call_r2', 'warm'),
			agentCall('call_r3', { city: 'Oslo' }),
			result('call_r3', 'cold'),
			agentCall('call_r4', { city: 'Bern' }),
			result('call_r4', 'mild'),
			agentCall('call_r5', { city: 'Lima' }),
			result('call_r5', 'dry'),
			{
				role: 'assistant',
				content: [
					{ type: 'reasoning', text: 'Summed up.' },
					{ type: 'text', text: 'Done.' },
				],
			},
		]);
		const assistants = messages.filter((message) => message.role === 'assistant');
		expect(assistants.map(({ tool_calls: _calls, ...rest }) => rest)).toEqual([
			{ role: 'assistant', content: null, reasoning_content: 'Ask for Paris.' },
			{ role: 'assistant', content: null, reasoning: 'Ask for both.' },
			{ role: 'assistant', content: null },
			{ role: 'assistant', content: '<think>Ask for Lima.</think>' },
			{ role: 'assistant', content: 'Done.' },
		]);
		expect(assistants[1].tool_calls?.map((call) => call.id)).toEqual(['call_r2', 'call_r3']);
	});

	test('remembered arguments are not used when the agent sends other ones', () => {
		rememberCalls([
			{
				id: 'call_changed',
				type: 'function',
				function: { name: 'weather', arguments: '{"city":"Paris"}' },
			},
		]);
		const [, assistant] = protocolMessages([
			user('Weather?'),
			agentCall('call_changed', { city: 'Lyon' }),
			result('call_changed', 'ok'),
		]);
		expect(assistant.tool_calls?.[0].function.arguments).toBe('{"city":"Lyon"}');
	});

	test('calls of different replies stay apart', () => {
		rememberCalls([
			{
				id: 'call_s1',
				type: 'function',
				function: { name: 'weather', arguments: '{"city":"Paris"}' },
			},
		]);
		rememberCalls([
			{
				id: 'call_s2',
				type: 'function',
				function: { name: 'weather', arguments: '{"city":"Tokyo"}' },
			},
		]);
		const messages = protocolMessages([
			user('Weather?'),
			agentCall('call_s1', { city: 'Paris' }),
			result('call_s1', 'sunny'),
			agentCall('call_s2', { city: 'Tokyo' }),
			result('call_s2', 'rain'),
		]);
		expect(messages.map((message) => message.role)).toEqual([
			'user',
			'assistant',
			'tool',
			'assistant',
			'tool',
		]);
	});

	test('tool results that are not text go as JSON; text parts are joined', () => {
		const messages = protocolMessages([
			user('x'),
			agentCall('call_r1', {}),
			{
				role: 'tool',
				content: [{ type: 'tool-result', toolCallId: 'call_r1', result: { temperature: 21 } }],
			},
			agentCall('call_r2', {}),
			{
				role: 'tool',
				content: [
					{
						type: 'tool-result',
						toolCallId: 'call_r2',
						result: [
							{ type: 'text', text: 'a' },
							{ type: 'text', text: 'b' },
						],
					},
				],
			},
		]);
		expect(messages[2].content).toBe('{"temperature":21}');
		expect(messages[4].content).toBe('ab');
	});

	test('an empty conversation is refused', () => {
		expect(() => protocolMessages([])).toThrow(InputError);
	});
});
