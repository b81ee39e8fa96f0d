/** Where Options > Prompt Caching puts its breakpoint in messages of every shape, and that it leaves them unchanged. */
import { InputError } from '../../../engine/failures/errors';
import type { ChatMessage } from '../../../engine/protocol';
import { promptCaching } from '../../../engine/request/prompt-caching';

const mark = { type: 'ephemeral' };

test('the last text part of the last system message; the messages given are not changed', () => {
	const messages: ChatMessage[] = [
		{ role: 'system', content: 'rules' },
		{
			role: 'system',
			content: [
				{ type: 'text', text: 'part one' },
				{ type: 'text', text: 'part two' },
				{ type: 'text', text: '' },
			],
		},
		{ role: 'user', content: 'hello' },
	];
	const before = JSON.stringify(messages);
	const { messages: sent, cacheControl } = promptCaching(
		{ promptCaching: 'systemMessage' },
		messages,
	);
	expect(cacheControl).toBeUndefined();
	expect(sent[0]).toBe(messages[0]);
	expect(sent[1].content).toEqual([
		{ type: 'text', text: 'part one' },
		{ type: 'text', text: 'part two', cache_control: mark },
		{ type: 'text', text: '' },
	]);
	expect(sent[2]).toBe(messages[2]);
	expect(JSON.stringify(messages)).toBe(before);
});

test('a system message without text is passed over for an earlier one with text', () => {
	const { messages } = promptCaching({ promptCaching: 'systemMessage', promptCacheTtl: '1h' }, [
		{ role: 'system', content: 'rules' },
		{ role: 'system', content: '' },
		{ role: 'user', content: 'hello' },
	]);
	expect(messages[0].content).toEqual([
		{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral', ttl: '1h' } },
	]);
	expect(messages[1].content).toBe('');
});

test.each([
	['no system message', [{ role: 'user', content: 'hello' }]],
	[
		'an empty system message',
		[
			{ role: 'system', content: '' },
			{ role: 'user', content: 'hi' },
		],
	],
] as Array<[string, ChatMessage[]]>)(
	'%s: an input error that names the option',
	(_name, messages) => {
		expect(() => promptCaching({ promptCaching: 'systemMessage' }, messages)).toThrow(InputError);
		expect(() => promptCaching({ promptCaching: 'systemMessage' }, messages)).toThrow(
			/Prompt Caching.*no system message with text/,
		);
	},
);

test('Automatic: the top-level field, 5 minutes without a ttl; Off and not added: nothing', () => {
	const messages: ChatMessage[] = [{ role: 'user', content: 'hello' }];
	expect(promptCaching({ promptCaching: 'automatic' }, messages)).toEqual({
		messages,
		cacheControl: mark,
	});
	expect(promptCaching({ promptCaching: 'off', promptCacheTtl: '1h' }, messages)).toEqual({
		messages,
	});
	expect(promptCaching({}, messages)).toEqual({ messages });
});

test('a value that is no choice names the option and the choices', () => {
	let thrown: unknown;
	try {
		promptCaching({ promptCaching: 'on' }, []);
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(InputError);
	expect((thrown as InputError).message).toBe('Prompt Caching: has the unknown value "on"');
	expect((thrown as InputError).fix).toMatch(/^Choose Off, Automatic, System Message;/);
});
