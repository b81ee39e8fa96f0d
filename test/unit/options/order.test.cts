/** The Options list of both nodes: what users change most first, the tuning of requests last. */
import type { INodeProperties } from 'n8n-workflow';

import { ChatCompletion } from '../../../nodes/ChatCompletion/ChatCompletion.node';
import { LmChatCompletions } from '../../../nodes/LmChatCompletions/LmChatCompletions.node';

function optionsOf(properties: INodeProperties[]): INodeProperties[] {
	const options = properties.find((property) => property.name === 'options');
	return (options?.options ?? []) as INodeProperties[];
}

function optionLabels(properties: INodeProperties[]): string[] {
	return optionsOf(properties).map((option) => option.displayName);
}

/** One option of Chat Completion's Options, as the UI gets it. */
function chatCompletionOption(name: string): INodeProperties | undefined {
	return optionsOf(new ChatCompletion().description.properties).find(
		(option) => option.name === name,
	);
}

test('Chat Completion: Temperature and Top P, Maximum Tokens, Response Format and Stream first; Stream Usage and retries last', () => {
	const labels = optionLabels(new ChatCompletion().description.properties);
	expect(labels.slice(0, 4)).toEqual(['Temperature', 'Top P', 'Maximum Tokens', 'Response Format']);
	expect(labels.indexOf('Stream')).toBeLessThan(labels.indexOf('Reasoning Effort'));
	expect(labels.slice(-7)).toEqual([
		'Stream Usage',
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
	expect(labels.slice(0, 4)).toEqual(['Temperature', 'Top P', 'Maximum Tokens', 'Response Format']);
	expect(labels.at(-1)).toBe('Retry Timeouts');
});

test('Concurrency says under its field that 0 is Auto', () => {
	const concurrency = chatCompletionOption('concurrency');
	expect(concurrency).toMatchObject({ default: 0, hint: '0 = Auto' });
});

test('Token Budget says under its field that 0 is none', () => {
	const budget = chatCompletionOption('tokenBudget');
	expect(budget).toMatchObject({ default: 0, hint: '0 = none' });
});

test('Reasoning Effort lists its choices in order of effort', () => {
	const effort = chatCompletionOption('reasoningEffort');
	expect((effort?.options as Array<{ value: string }>).map((choice) => choice.value)).toEqual([
		'none',
		'minimal',
		'low',
		'medium',
		'high',
		'xhigh',
		'max',
	]);
});

test('Max Image Size shows the megabytes as typed (20, not 20.000)', () => {
	const size = chatCompletionOption('maxImageSize');
	expect(size?.default).toBe(20);
	expect(size?.typeOptions?.numberPrecision).toBeUndefined();
});

test("the embeddings sub-node's own options (Dimensions, Batch Size) are not among the chat nodes'", () => {
	for (const properties of [
		new ChatCompletion().description.properties,
		new LmChatCompletions().description.properties,
	]) {
		const labels = optionLabels(properties);
		expect(labels).not.toContain('Dimensions');
		expect(labels).not.toContain('Batch Size');
	}
});
