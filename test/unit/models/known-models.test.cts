/** What the model check before a batch accepts of a key's list: listed IDs, OpenRouter's variants, wildcard routes. */
import { KnownModels } from '../../../engine/models/known-models';

const known = new KnownModels(['anthropic/claude-sonnet-4.5', 'openai/*', 'llama3:8b', 'a.b+c']);

test.each([
	'anthropic/claude-sonnet-4.5',
	'anthropic/claude-sonnet-4.5:online',
	'anthropic/claude-sonnet-4.5:nitro',
	'anthropic/claude-sonnet-4.5:floor',
	'anthropic/claude-sonnet-4.5:exacto',
	'openai/gpt-4o',
	'openai/o3-mini:high',
	'llama3:8b',
	'a.b+c',
])('covered: %s', (id) => {
	expect(known.covers(id)).toBe(true);
});

test.each([
	['a model not listed', 'anthropic/claude-opus-4'],
	['an unknown suffix on a listed model', 'anthropic/claude-sonnet-4.5:turbo'],
	['a variant of a model not listed', 'anthropic/claude-opus-4:online'],
	['another tag of an Ollama model (its colon is no variant)', 'llama3:70b'],
	['the route prefix alone, without a model', 'openai'],
	["a prefix the route's does not start", 'xopenai/gpt-4o'],
	['a dot read as any character', 'aXb+c'],
])('refused: %s', (_name, id) => {
	expect(known.covers(id)).toBe(false);
});

test('size counts the entries, routes included', () => {
	expect(known.size).toBe(4);
});
