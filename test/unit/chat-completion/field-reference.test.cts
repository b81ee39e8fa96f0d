import { fieldReference, textAt } from '../../../nodes/ChatCompletion/execute/field-reference';

describe('fieldReference: a parameter that is exactly one field of the item', () => {
	test.each([
		['={{ $json.prompt }}', ['prompt']],
		['={{$json.prompt}}', ['prompt']],
		['={{ $json.row.question }}', ['row', 'question']],
		['={{ $json["question text"] }}', ['question text']],
		["={{ $json.row['a b'].c }}", ['row', 'a b', 'c']],
		['={{ $json.$x_1 }}', ['$x_1']],
	])('%s reads %j', (raw, path) => {
		expect(fieldReference(raw)).toEqual(path);
	});

	test.each([
		['text, not an expression', '$json.prompt'],
		['text around the field', '=Q: {{ $json.prompt }}'],
		['a space after the braces', '={{ $json.prompt }} '],
		['two expressions', '={{ $json.a }}{{ $json.b }}'],
		['a method call', '={{ $json.prompt.trim() }}'],
		['another variable', '={{ $input.item.json.prompt }}'],
		['a computed key', '={{ $json[$json.key] }}'],
		['an index', '={{ $json.list[0] }}'],
		['a guarded name', '={{ $json.constructor }}'],
		['a guarded key', '={{ $json["__proto__"] }}'],
		['an escaped quote', '={{ $json["a\\"b"] }}'],
		['not text', { __rl: true, value: '={{ $json.model }}' }],
		['nothing', undefined],
	])('%s is left to n8n', (_, raw) => {
		expect(fieldReference(raw)).toBeUndefined();
	});
});

describe('textAt: the text at a path of own fields', () => {
	test('reads nested own fields', () => {
		expect(textAt({ row: { 'a b': 'why' } }, ['row', 'a b'])).toBe('why');
		expect(textAt({ prompt: '' }, ['prompt'])).toBe('');
	});

	test.each([
		['a missing field', {}, ['prompt']],
		['a number', { prompt: 7 }, ['prompt']],
		['null', { prompt: null }, ['prompt']],
		['an object', { prompt: { a: 'b' } }, ['prompt']],
		['a path through text', { prompt: 'abc' }, ['prompt', 'length']],
		['a path through an array', { list: ['a'] }, ['list', '0']],
		['an inherited field', Object.create({ prompt: 'inherited' }) as object, ['prompt']],
	])('%s gives undefined (n8n resolves it)', (_, json, path) => {
		expect(textAt(json as never, path)).toBeUndefined();
	});
});
