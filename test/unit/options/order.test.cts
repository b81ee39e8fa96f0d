/** The Options list of both nodes: what users change most first, the tuning of requests last. */
import type { INodeProperties } from 'n8n-workflow';

import { ChatCompletion } from '../../../nodes/ChatCompletion/ChatCompletion.node';
import { LmChatCompletions } from '../../../nodes/LmChatCompletions/LmChatCompletions.node';

function optionLabels(properties: INodeProperties[]): string[] {
	const options = properties.find((property) => property.name === 'options');
	return ((options?.options ?? []) as INodeProperties[]).map((option) => option.displayName);
}

test('Chat Completion: Temperature, Maximum Tokens, Response Format and Stream first; retries last', () => {
	const labels = optionLabels(new ChatCompletion().description.properties);
	expect(labels.slice(0, 3)).toEqual(['Temperature', 'Maximum Tokens', 'Response Format']);
	expect(labels.indexOf('Stream')).toBeLessThan(labels.indexOf('Top P'));
	expect(labels.slice(-6)).toEqual([
		'Concurrency',
		'Timeout (Ms)',
		'Max Retries',
		'Max Retry Wait (Ms)',
		'Max Wait on Rate Limit (Ms)',
		'Retry Timeouts',
	]);
});

test('the Chat Model lists its options in the same order', () => {
	const labels = optionLabels(new LmChatCompletions().description.properties);
	expect(labels.slice(0, 3)).toEqual(['Temperature', 'Maximum Tokens', 'Response Format']);
	expect(labels.at(-1)).toBe('Retry Timeouts');
});

test('Concurrency says under its field that 0 is Auto', () => {
	const options = new ChatCompletion().description.properties.find(
		(property) => property.name === 'options',
	);
	const concurrency = ((options?.options ?? []) as INodeProperties[]).find(
		(option) => option.name === 'concurrency',
	);
	expect(concurrency).toMatchObject({ default: 0, hint: '0 = Auto' });
});
