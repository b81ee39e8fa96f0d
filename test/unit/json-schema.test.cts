import { checkSchema, describeViolations, validateValue } from '../../engine/json-schema/index';
import { leastTimeMs } from '../support/least-time.cts';

/** Each violation as one `path: message` line, the way describeViolations writes them. */
const lines = (schema: unknown, value: unknown, limit?: number): string[] =>
	validateValue(schema, value, limit).map(({ path, message }) => `${path}: ${message}`);

const problems = (schema: unknown): string[] =>
	checkSchema(schema).map(({ path, message }) => (path === '' ? message : `${path}: ${message}`));

describe('validateValue: type', () => {
	test.each([
		['string', 'a'],
		['number', 1.5],
		['number', 2],
		['integer', 2],
		['integer', 2.0],
		['boolean', false],
		['object', {}],
		['array', []],
		['null', null],
	])('a value of type %s passes: %p', (type, value) => {
		expect(lines({ type }, value)).toEqual([]);
	});

	test.each([
		['string', 3, '$: must be a string, got number 3'],
		['number', '12 EUR', '$: must be a number, got the text "12 EUR"'],
		['integer', 2.5, '$: must be a whole number, got number 2.5'],
		['boolean', 'yes', '$: must be true or false, got the text "yes"'],
		['object', [], '$: must be an object, got an array'],
		['array', {}, '$: must be an array, got an object'],
		['null', 0, '$: must be null, got number 0'],
		['string', null, '$: must be a string, got null'],
		['number', true, '$: must be a number, got true'],
	])('a value that is not of type %s fails: %p', (type, value, expected) => {
		expect(lines({ type }, value)).toEqual([expected]);
	});

	test('a list of types allows each of them', () => {
		const schema = { type: ['string', 'null'] };
		expect(lines(schema, 'a')).toEqual([]);
		expect(lines(schema, null)).toEqual([]);
		expect(lines(schema, 3)).toEqual(['$: must be a string or null, got number 3']);
		expect(lines({ type: ['string', 'number', 'null'] }, false)).toEqual([
			'$: must be a string, a number or null, got false',
		]);
	});

	test('a long text is cut in the message, on one line', () => {
		const [line] = lines({ type: 'number' }, `${'x'.repeat(60)}\nsecond line`);
		expect(line).toBe(`$: must be a number, got the text "${'x'.repeat(40)}…"`);
	});

	test('a wrong type is the only violation from that schema', () => {
		expect(lines({ type: 'string', enum: ['a'], minLength: 3 }, 7)).toEqual([
			'$: must be a string, got number 7',
		]);
	});
});

describe('validateValue: enum and const', () => {
	test('enum', () => {
		const schema = { enum: ['open', 'closed'] };
		expect(lines(schema, 'open')).toEqual([]);
		expect(lines(schema, 'pending')).toEqual(['$: must be one of "open", "closed", got "pending"']);
		expect(lines({ enum: ['only'] }, 'other')).toEqual(['$: must be "only", got "other"']);
		expect(lines({ enum: [1, null, { a: [1] }] }, { b: 1 })).toEqual([
			'$: must be one of 1, null, {"a":[1]}, got an object',
		]);
	});

	test('enum compares JSON values, object keys in any order', () => {
		expect(lines({ enum: [{ a: 1, b: [true] }] }, { b: [true], a: 1 })).toEqual([]);
		expect(lines({ enum: [{ a: 1 }] }, { a: 1, b: 2 })).toHaveLength(1);
		expect(lines({ enum: [[1, 2]] }, [2, 1])).toHaveLength(1);
	});

	test('a long enum is listed in part', () => {
		const letters = 'abcdefghijklmnop'.split('');
		expect(lines({ enum: letters }, 'z')).toEqual([
			'$: must be one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" and 6 others, got "z"',
		]);
	});

	test('const', () => {
		expect(lines({ const: 'v1' }, 'v1')).toEqual([]);
		expect(lines({ const: null }, null)).toEqual([]);
		expect(lines({ const: 'v1' }, 'v2')).toEqual(['$: must be "v1", got "v2"']);
		expect(lines({ const: null }, 0)).toEqual(['$: must be null, got 0']);
		expect(lines({ const: { a: 1 } }, { a: 1 })).toEqual([]);
		expect(lines({ const: { a: 1 } }, [1])).toEqual(['$: must be {"a":1}, got an array']);
	});
});

describe('validateValue: objects', () => {
	const customer = {
		type: 'object',
		properties: {
			customer: {
				type: 'object',
				properties: { email: { type: 'string' }, name: { type: 'string' } },
				required: ['email', 'name'],
			},
		},
		required: ['customer'],
	};

	test('properties and required', () => {
		expect(lines(customer, { customer: { email: 'a@example.com', name: 'Ann' } })).toEqual([]);
		expect(lines(customer, {})).toEqual(['$.customer: is required but missing']);
		expect(lines(customer, { customer: { name: 5 } })).toEqual([
			'$.customer.email: is required but missing',
			'$.customer.name: must be a string, got number 5',
		]);
	});

	test('properties apply only to the properties that are there; other values are not objects', () => {
		expect(lines({ properties: { a: { type: 'string' } } }, {})).toEqual([]);
		expect(lines({ properties: { a: { type: 'string' } }, required: ['a'] }, 'text')).toEqual([]);
	});

	test('a required name that only an object prototype has is still missing', () => {
		expect(lines({ required: ['constructor', 'toString'] }, {})).toEqual([
			'$.constructor: is required but missing',
			'$.toString: is required but missing',
		]);
	});

	test('additionalProperties: false', () => {
		const schema = { properties: { a: {} }, additionalProperties: false };
		expect(lines(schema, { a: 1 })).toEqual([]);
		expect(lines(schema, { a: 1, extra: 2 })).toEqual([
			'$: has the property "extra" that the schema does not allow',
		]);
		expect(lines(schema, { b: 1, c: 2 })).toEqual([
			'$: has the properties "b", "c" that the schema does not allow',
		]);
	});

	test('additionalProperties as a schema', () => {
		const schema = {
			properties: { id: { type: 'string' } },
			additionalProperties: { type: 'number' },
		};
		expect(lines(schema, { id: 'x', score: 3 })).toEqual([]);
		expect(lines(schema, { id: 'x', score: 'high' })).toEqual([
			'$.score: must be a number, got the text "high"',
		]);
	});

	test('patternProperties, alone and with additionalProperties: false', () => {
		const schema = {
			patternProperties: { '^x-': { type: 'string' } },
			additionalProperties: false,
		};
		expect(lines(schema, { 'x-trace': 'abc' })).toEqual([]);
		expect(lines(schema, { 'x-trace': 1 })).toEqual([
			'$["x-trace"]: must be a string, got number 1',
		]);
		expect(lines(schema, { trace: 'abc' })).toEqual([
			'$: has the property "trace" that the schema does not allow',
		]);
		expect(
			lines({ patternProperties: { é: { type: 'number' } } }, { café: 'x', tea: 'y' }),
		).toEqual(['$["café"]: must be a number, got the text "x"']);
	});
});

describe('validateValue: arrays', () => {
	test('items', () => {
		const schema = {
			type: 'array',
			items: { type: 'object', properties: { price: { type: 'number' } } },
		};
		expect(lines(schema, [{ price: 1 }, { price: 2 }])).toEqual([]);
		expect(lines(schema, [{ price: 1 }, {}, { price: '12 EUR' }])).toEqual([
			'$[2].price: must be a number, got the text "12 EUR"',
		]);
	});

	test('prefixItems, with items for the rest', () => {
		const schema = {
			prefixItems: [{ type: 'string' }, { type: 'number' }],
			items: { type: 'boolean' },
		};
		expect(lines(schema, ['a', 1, true, false])).toEqual([]);
		expect(lines(schema, ['a'])).toEqual([]);
		expect(lines(schema, [1, 'b', null])).toEqual([
			'$[0]: must be a string, got number 1',
			'$[1]: must be a number, got the text "b"',
			'$[2]: must be true or false, got null',
		]);
		expect(lines({ prefixItems: [{ type: 'string' }] }, ['a', 2, 3])).toEqual([]);
		expect(lines({ prefixItems: [{ type: 'string' }], items: false }, ['a', 2])).toEqual([
			'$[1]: is not allowed here',
		]);
	});

	test('minItems and maxItems', () => {
		expect(lines({ minItems: 1, maxItems: 2 }, [1])).toEqual([]);
		expect(lines({ minItems: 2 }, [1])).toEqual(['$: must have at least 2 items, got 1']);
		expect(lines({ minItems: 1 }, [])).toEqual(['$: must have at least 1 item, got 0']);
		expect(lines({ maxItems: 2 }, [1, 2, 3])).toEqual(['$: must have at most 2 items, got 3']);
	});

	test('uniqueItems', () => {
		expect(lines({ uniqueItems: true }, [1, '1', { a: 1 }, { a: 2 }, [1]])).toEqual([]);
		expect(lines({ uniqueItems: false }, [1, 1])).toEqual([]);
		expect(lines({ uniqueItems: true }, ['a', { x: 1, y: 2 }, 'b', { y: 2, x: 1 }])).toEqual([
			'$: must not repeat an item, but [1] and [3] are the same',
		]);
	});
});

describe('validateValue: strings', () => {
	test('minLength and maxLength count code points, so an emoji is one character', () => {
		expect(lines({ minLength: 2, maxLength: 2 }, '😀😀')).toEqual([]);
		expect(lines({ minLength: 3 }, '😀😀')).toEqual([
			'$: must be at least 3 characters long, got 2',
		]);
		expect(lines({ maxLength: 1 }, 'ab')).toEqual(['$: must be at most 1 character long, got 2']);
	});

	test('pattern matches anywhere unless anchored, in Unicode mode', () => {
		expect(lines({ pattern: 'b' }, 'abc')).toEqual([]);
		expect(lines({ pattern: '^\\p{Lu}' }, 'Élan')).toEqual([]);
		expect(lines({ pattern: '^[0-9]{3}$' }, '12a')).toEqual([
			'$: must match the pattern "^[0-9]{3}$", got the text "12a"',
		]);
	});

	test('a pattern that does not compile gives one violation that says so, and does not throw', () => {
		expect(lines({ pattern: '(' }, 'abc')).toEqual([
			'$: cannot be checked, the schema is not usable: pattern: "(" is not a valid regular expression (Unterminated group)',
		]);
		expect(lines({ patternProperties: { '(': false } }, { a: 1 })).toEqual([
			'$: cannot be checked, the schema is not usable: patternProperties["("]: "(" is not a valid regular expression (Unterminated group)',
		]);
	});
});

describe('validateValue: numbers', () => {
	test.each([
		[{ minimum: 5 }, 5, 4, '$: must be at least 5, got 4'],
		[{ maximum: 5 }, 5, 6, '$: must be at most 5, got 6'],
		[{ exclusiveMinimum: 0 }, 0.1, 0, '$: must be greater than 0, got 0'],
		[{ exclusiveMaximum: 10 }, 9.9, 10, '$: must be less than 10, got 10'],
		[{ multipleOf: 5 }, 15, 12, '$: must be a multiple of 5, got 12'],
		[{ multipleOf: 0.01 }, 19.99, 1.234, '$: must be a multiple of 0.01, got 1.234'],
	])('%j passes %p and fails %p', (schema, good, bad, expected) => {
		expect(lines(schema, good)).toEqual([]);
		expect(lines(schema, bad)).toEqual([expected]);
	});

	test('multipleOf allows for binary fractions', () => {
		expect(lines({ multipleOf: 0.1 }, 0.3)).toEqual([]);
		expect(lines({ multipleOf: 0.1 }, 0.35)).toHaveLength(1);
	});

	test('number keywords ignore values of other types, string keywords ignore numbers', () => {
		expect(lines({ minimum: 5, minLength: 5 }, 'abcdef')).toEqual([]);
		expect(lines({ minimum: 5, minLength: 5 }, 6)).toEqual([]);
	});
});

describe('validateValue: combinations', () => {
	const stringOrNamed = { anyOf: [{ type: 'string' }, { type: 'object', required: ['name'] }] };

	test('anyOf', () => {
		expect(lines({ properties: { x: stringOrNamed } }, { x: 'a' })).toEqual([]);
		expect(lines({ properties: { x: stringOrNamed } }, { x: { name: 'a' } })).toEqual([]);
		expect(lines({ properties: { x: stringOrNamed } }, { x: 3 })).toEqual([
			'$.x: matches none of the 2 allowed shapes (closest: must be a string, got number 3)',
		]);
	});

	test('anyOf quotes the shape that got furthest into the value', () => {
		expect(lines({ properties: { x: stringOrNamed } }, { x: {} })).toEqual([
			'$.x: matches none of the 2 allowed shapes (closest: $.x.name: is required but missing)',
		]);
	});

	test('a single choice reports its own violations', () => {
		expect(lines({ anyOf: [{ type: 'string' }] }, 1)).toEqual([
			'$: must be a string, got number 1',
		]);
		expect(lines({ oneOf: [{ type: 'string' }] }, 1)).toEqual([
			'$: must be a string, got number 1',
		]);
	});

	test('oneOf', () => {
		const schema = {
			oneOf: [{ type: 'integer' }, { type: 'number', minimum: 10 }, { type: 'string' }],
		};
		expect(lines(schema, 3)).toEqual([]);
		expect(lines(schema, 10.5)).toEqual([]);
		expect(lines(schema, 12)).toEqual([
			'$: matches more than one of the 3 allowed shapes, but must match exactly one',
		]);
		expect(lines(schema, null)).toEqual([
			'$: matches none of the 3 allowed shapes (closest: must be a whole number, got null)',
		]);
	});

	test('allOf reports the violations of every member', () => {
		const schema = { allOf: [{ required: ['a'] }, { required: ['b'] }, { type: 'object' }] };
		expect(lines(schema, { a: 1, b: 2 })).toEqual([]);
		expect(lines(schema, {})).toEqual([
			'$.a: is required but missing',
			'$.b: is required but missing',
		]);
	});

	test('not', () => {
		expect(lines({ not: { type: 'null' } }, 1)).toEqual([]);
		expect(lines({ not: { type: 'null' } }, null)).toEqual([
			'$: must not match the shape given under "not"',
		]);
	});
});

describe('validateValue: keywords of draft 2020-12 that the old validator ignored', () => {
	test('contains, minContains, maxContains', () => {
		const numbers = { contains: { type: 'number' } };
		expect(lines(numbers, ['a', 1])).toEqual([]);
		expect(lines(numbers, ['a', 'b'])).toEqual([
			'$: must contain an item of the shape given under "contains"',
		]);
		expect(lines({ ...numbers, minContains: 2 }, ['a', 1])).toEqual([
			'$: must contain at least 2 items of the shape given under "contains"',
		]);
		expect(lines({ ...numbers, maxContains: 1 }, [2, 1])).toEqual([
			'$: must contain at most 1 item of the shape given under "contains"',
		]);
	});

	test('minProperties and maxProperties', () => {
		expect(lines({ minProperties: 1, maxProperties: 2 }, { a: 1 })).toEqual([]);
		expect(lines({ minProperties: 2 }, { a: 1 })).toEqual([
			'$: must have at least 2 properties, got 1',
		]);
		expect(lines({ maxProperties: 1 }, { a: 1, b: 2 })).toEqual([
			'$: must have at most 1 property, got 2',
		]);
	});

	test('dependentRequired and dependentSchemas', () => {
		const card = { dependentRequired: { card: ['billing', 'cvc'] } };
		expect(lines(card, { billing: 'x' })).toEqual([]);
		expect(lines(card, { card: 1, cvc: 2 })).toEqual([
			'$.billing: is required when "card" is there, but missing',
		]);
		const schemas = { dependentSchemas: { card: { properties: { cvc: { type: 'string' } } } } };
		expect(lines(schemas, { cvc: 1 })).toEqual([]);
		expect(lines(schemas, { card: 1, cvc: 1 })).toEqual(['$.cvc: must be a string, got number 1']);
	});

	test('if, then, else', () => {
		const schema = {
			if: { properties: { country: { const: 'US' } } },
			then: { required: ['zip'] },
			else: { required: ['postcode'] },
		};
		expect(lines(schema, { country: 'US', zip: '1' })).toEqual([]);
		expect(lines(schema, { country: 'US' })).toEqual(['$.zip: is required but missing']);
		expect(lines(schema, { country: 'DE' })).toEqual(['$.postcode: is required but missing']);
	});

	test('propertyNames: the violation names the property', () => {
		const schema = { propertyNames: { pattern: '^[a-z]+$', maxLength: 3 } };
		expect(lines(schema, { abc: 1 })).toEqual([]);
		expect(lines(schema, { abcd: 1, 'A b': 2 })).toEqual([
			'$.abcd: its name must be at most 3 characters long, got 4',
			'$["A b"]: its name must match the pattern "^[a-z]+$", got the text "A b"',
		]);
	});

	test('unevaluatedProperties and unevaluatedItems see what allOf and prefixItems evaluated', () => {
		const closed = { allOf: [{ properties: { a: true } }], unevaluatedProperties: false };
		expect(lines(closed, { a: 1 })).toEqual([]);
		expect(lines(closed, { a: 1, b: 2, c: 3 })).toEqual([
			'$: has the properties "b", "c" that the schema does not allow',
		]);
		expect(lines({ unevaluatedProperties: { type: 'number' } }, { a: 'x' })).toEqual([
			'$.a: must be a number, got the text "x"',
		]);
		expect(lines({ prefixItems: [true], unevaluatedItems: false }, [1, 2])).toEqual([
			'$[1]: is not allowed here',
		]);
	});

	test('patternProperties also apply to the properties that properties lists', () => {
		const schema = {
			properties: { foo: { type: 'array' } },
			patternProperties: { 'f.o': { minItems: 2 } },
		};
		expect(lines(schema, { foo: [1, 2] })).toEqual([]);
		expect(lines(schema, { foo: [1] })).toEqual(['$.foo: must have at least 2 items, got 1']);
	});

	test('$ref to an $anchor and to an $id', () => {
		const schema = {
			$id: 'https://example.com/order.json',
			$defs: {
				price: { $anchor: 'price', type: 'number' },
				sku: { $id: 'sku.json', type: 'string' },
			},
			properties: { price: { $ref: '#price' }, sku: { $ref: 'sku.json' } },
		};
		expect(lines(schema, { price: 1, sku: 'a' })).toEqual([]);
		expect(lines(schema, { price: 'x', sku: 1 })).toEqual([
			'$.price: must be a number, got the text "x"',
			'$.sku: must be a string, got number 1',
		]);
	});

	test('the schema given is left as it was', () => {
		const schema = { $defs: { no: false }, properties: { a: { $ref: '#/$defs/no' } } };
		expect(lines(schema, { a: 1 })).toEqual(['$.a: is not allowed here']);
		expect(schema).toEqual({ $defs: { no: false }, properties: { a: { $ref: '#/$defs/no' } } });
		expect(Object.getOwnPropertyNames(schema)).toEqual(['$defs', 'properties']);
		expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(['$ref']);
	});
});

describe('validateValue: $ref and boolean schemas', () => {
	test('$ref to $defs, definitions, the root and any pointer, with ~0 ~1 and %-escapes', () => {
		const schema = {
			$defs: { money: { type: 'number' }, 'a/b~c': { type: 'string' } },
			definitions: { name: { type: 'string', minLength: 1 } },
			properties: {
				price: { $ref: '#/$defs/money' },
				name: { $ref: '#/definitions/name' },
				odd: { $ref: '#/$defs/a~1b~0c' },
				spaced: { $ref: '#/properties/odd%20' },
				'odd ': { type: 'boolean' },
				again: { $ref: '#/properties/price' },
				first: { $ref: '#/properties/list/prefixItems/0' },
				list: { prefixItems: [{ const: 1 }] },
			},
		};
		const good = { price: 1, name: 'n', odd: 's', spaced: true, again: 2, first: 1 };
		expect(lines(schema, good)).toEqual([]);
		expect(
			lines(schema, { price: 'x', name: '', odd: 1, spaced: 'y', again: 'z', first: 2 }),
		).toEqual([
			'$.price: must be a number, got the text "x"',
			'$.name: must be at least 1 character long, got 0',
			'$.odd: must be a string, got number 1',
			'$.spaced: must be true or false, got the text "y"',
			'$.again: must be a number, got the text "z"',
			'$.first: must be 1, got 2',
		]);
	});

	test('keywords next to $ref apply as well', () => {
		const schema = { $defs: { text: { type: 'string' } }, $ref: '#/$defs/text', maxLength: 2 };
		expect(lines(schema, 'ab')).toEqual([]);
		expect(lines(schema, 'abc')).toEqual(['$: must be at most 2 characters long, got 3']);
		expect(lines(schema, 5)).toEqual(['$: must be a string, got number 5']);
	});

	test('a recursive $ref describes a tree', () => {
		const tree = {
			type: 'object',
			properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
			required: ['name'],
		};
		const value = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }, {}] }] };
		expect(lines(tree, value)).toEqual(['$.children[0].children[1].name: is required but missing']);
	});

	test('a $ref that leads back to itself stops with a violation instead of overflowing the stack', () => {
		expect(lines({ $ref: '#' }, 1)).toEqual([
			'$: cannot be checked, the schema is not usable: $ref: "#" leads back here without stepping into a property or an item, so checking a value against it would never end',
		]);
		expect(
			lines(
				{ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
				1,
			),
		).toHaveLength(1);
	});

	test('boolean schemas', () => {
		expect(lines(true, { anything: [1] })).toEqual([]);
		expect(lines(false, 1)).toEqual(['$: is not allowed here']);
		expect(lines({ properties: { secret: false, free: true } }, { free: 1 })).toEqual([]);
		expect(lines({ properties: { secret: false } }, { secret: 1 })).toEqual([
			'$.secret: is not allowed here',
		]);
	});

	test('a schema checkSchema refuses never makes validation throw; a type name that does not exist matches nothing', () => {
		expect(
			lines({ type: 5, minimum: '3', required: 'a', items: [{ type: 'string' }] }, [1]),
		).toEqual(['$: must be "5", got an array']);
		expect(lines({ $ref: '#/$defs/missing', pattern: '(' }, 'x')).toEqual([
			'$: cannot be checked, the schema is not usable: $ref: "#/$defs/missing" does not point to anything in this schema; and 1 more',
		]);
		expect(lines({ type: 'strin' }, 'x')).toEqual(['$: must be "strin", got the text "x"']);
	});

	test('an empty enum allows no value', () => {
		expect(lines({ enum: [] }, 1)).toEqual(['$: is not allowed here: "enum" lists no value']);
	});

	test('annotations and unknown keywords are ignored', () => {
		const schema = {
			$schema: 'https://json-schema.org/draft/2020-12/schema',
			$id: 'https://example.com/order',
			title: 'Order',
			description: 'An order',
			default: 3,
			examples: ['x'],
			format: 'email',
			strict: true,
			madeUpKeyword: { type: 'number' },
			type: 'string',
		};
		expect(lines(schema, 'not an email')).toEqual([]);
	});
});

describe('validateValue: paths and limit', () => {
	test('paths: dots for identifiers, brackets for indexes and for other keys', () => {
		const schema = {
			properties: {
				list: {
					items: { properties: { 'first name': { type: 'string' }, $id2: { type: 'string' } } },
				},
				'': { type: 'string' },
				'1st': { type: 'string' },
				'say "hi"': { type: 'string' },
			},
		};
		const value = {
			list: [{}, { 'first name': 1, $id2: 2 }],
			'': 3,
			'1st': 4,
			'say "hi"': 5,
		};
		expect(validateValue(schema, value).map(({ path }) => path)).toEqual([
			'$.list[1]["first name"]',
			'$.list[1].$id2',
			'$[""]',
			'$["1st"]',
			'$["say \\"hi\\""]',
		]);
	});

	test('validation stops after `limit` violations (20 by default, at least 1)', () => {
		const schema = { items: { type: 'string' } };
		const numbers = Array.from({ length: 50 }, (_, index) => index);
		expect(validateValue(schema, numbers)).toHaveLength(20);
		expect(validateValue(schema, numbers, 3).map(({ path }) => path)).toEqual([
			'$[0]',
			'$[1]',
			'$[2]',
		]);
		expect(validateValue(schema, numbers, 0)).toHaveLength(1);
	});

	test('a large value is checked in one pass', () => {
		const items = Array.from({ length: 20_000 }, (_, index) => ({
			id: index,
			tags: [`t${index}`, 'x'],
		}));
		const schema = {
			type: 'array',
			uniqueItems: true,
			items: {
				type: 'object',
				required: ['id'],
				properties: { id: { type: 'integer' }, tags: { type: 'array', uniqueItems: true } },
				additionalProperties: false,
			},
		};
		expect(validateValue(schema, items)).toEqual([]);
		expect(leastTimeMs(() => validateValue(schema, items), 3000)).toBeLessThan(3000);
	});
});

describe('describeViolations', () => {
	const violations = [
		{ path: '$.customer.email', message: 'is required but missing' },
		{ path: '$.items[2].price', message: 'must be a number, got the text "12 EUR"' },
		{ path: '$.a', message: 'one' },
		{ path: '$.b', message: 'two' },
		{ path: '$.c', message: 'three' },
	];

	test('the first few on one line, then how many more', () => {
		expect(describeViolations(violations, 2)).toBe(
			'$.customer.email: is required but missing; $.items[2].price: must be a number, got the text "12 EUR"; and 3 more',
		);
		expect(describeViolations(violations.slice(0, 3))).toBe(
			'$.customer.email: is required but missing; $.items[2].price: must be a number, got the text "12 EUR"; $.a: one',
		);
		expect(describeViolations([])).toBe('');
	});

	test('schema problems too; the root path is left out', () => {
		const schemaProblems = checkSchema({ type: 'strin', minimum: 'x' });
		expect(describeViolations(schemaProblems, 1)).toBe(
			'type: "strin" is not a JSON Schema type; did you mean "string"?; and 1 more',
		);
		expect(describeViolations(checkSchema(7))).toBe(
			'must be a schema (a JSON object, true or false), got number 7',
		);
	});
});

describe('checkSchema', () => {
	test('a correct schema using every supported keyword has no problems', () => {
		const schema = {
			$schema: 'https://json-schema.org/draft/2020-12/schema',
			title: 'Everything',
			type: ['object', 'null'],
			properties: {
				name: { type: 'string', minLength: 1, maxLength: 50, pattern: '^\\p{L}' },
				age: {
					type: 'integer',
					minimum: 0,
					maximum: 150,
					exclusiveMaximum: 151,
					exclusiveMinimum: -1,
				},
				price: { type: 'number', multipleOf: 0.01 },
				tags: {
					type: 'array',
					items: { type: 'string' },
					minItems: 0,
					maxItems: 5,
					uniqueItems: true,
				},
				pair: { prefixItems: [{ type: 'string' }, true], items: false },
				status: { enum: ['open', 'closed'] },
				version: { const: 2 },
				contact: { anyOf: [{ $ref: '#/$defs/email' }, { $ref: '#/definitions/phone' }] },
				kind: { oneOf: [{ const: 'a' }, { const: 'b' }] },
				both: { allOf: [{ type: 'string' }, { not: { const: '' } }] },
				children: { type: 'array', items: { $ref: '#' } },
			},
			patternProperties: { '^x-': {} },
			additionalProperties: { type: 'string' },
			required: ['name', 'age'],
			$defs: { email: { type: 'string', format: 'email' } },
			definitions: { phone: { type: 'string' } },
		};
		expect(problems(schema)).toEqual([]);
		expect(problems(true)).toEqual([]);
		expect(problems(false)).toEqual([]);
	});

	test('a misspelled type deep in the tree, with a suggestion', () => {
		const schema = {
			type: 'object',
			properties: {
				address: {
					type: 'object',
					properties: { city: { type: 'strin' }, zip: { type: 'INTEGER' } },
				},
			},
		};
		expect(problems(schema)).toEqual([
			'properties.address.properties.city.type: "strin" is not a JSON Schema type; did you mean "string"?',
			'properties.address.properties.zip.type: "INTEGER" is not a JSON Schema type; did you mean "integer"?',
		]);
	});

	test('a type with no near name lists the types; type lists are checked entry by entry', () => {
		expect(problems({ type: 'text' })).toEqual([
			'type: "text" is not a JSON Schema type; the types are "string", "number", "integer", "boolean", "object", "array", "null"',
		]);
		expect(problems({ type: ['string', 'nul', 3] })).toEqual([
			'type[1]: "nul" is not a JSON Schema type; did you mean "null"?',
			'type[2]: must be a type name such as "string", got number 3',
		]);
		expect(problems({ type: [] })).toEqual(['type: must name at least one type']);
		expect(problems({ type: { name: 'string' } })).toEqual([
			'type: must be a type name such as "string", or a list of them, got an object',
		]);
	});

	test('misspelled types are found inside every kind of subschema', () => {
		const bad = { type: 'strng' };
		const schema = {
			items: bad,
			prefixItems: [bad],
			additionalProperties: bad,
			patternProperties: { x: bad },
			anyOf: [bad],
			oneOf: [bad],
			allOf: [bad],
			not: bad,
			$defs: { a: bad },
			definitions: { b: bad },
			if: bad,
			then: bad,
			else: bad,
			contains: bad,
			propertyNames: bad,
			unevaluatedItems: bad,
			unevaluatedProperties: bad,
			dependentSchemas: { c: bad },
		};
		expect(checkSchema(schema).map(({ path }) => path)).toEqual([
			'items.type',
			'prefixItems[0].type',
			'additionalProperties.type',
			'patternProperties.x.type',
			'anyOf[0].type',
			'oneOf[0].type',
			'allOf[0].type',
			'not.type',
			'$defs.a.type',
			'definitions.b.type',
			'if.type',
			'then.type',
			'else.type',
			'contains.type',
			'propertyNames.type',
			'unevaluatedItems.type',
			'unevaluatedProperties.type',
			'dependentSchemas.c.type',
		]);
	});

	test('keywords of draft 2020-12 that the validator now follows, in the right form and not', () => {
		const schema = {
			$id: 'https://example.com/order.json',
			contains: { type: 'number' },
			minContains: 1,
			maxContains: 2,
			minProperties: 1,
			maxProperties: 3,
			dependentRequired: { card: ['billing'] },
			properties: { price: { $ref: '#price' }, sku: { $ref: 'sku.json' } },
			$defs: { price: { $anchor: 'price', type: 'number' }, sku: { $id: 'sku.json' } },
		};
		expect(problems(schema)).toEqual([]);
		expect(
			problems({
				minContains: 3,
				maxContains: 2,
				minProperties: 'one',
				dependentRequired: { card: 'billing' },
			}),
		).toEqual([
			'minProperties: must be a whole number of 0 or more, got the text "one"',
			'dependentRequired: must be an object with a list of property names for each name, got an object',
			'minContains: 3 is more than maxContains 2, so no value can pass',
		]);
	});

	test('$dynamicRef and $dynamicAnchor, which the validator would pass over, are refused', () => {
		expect(problems({ $dynamicAnchor: 'node', items: { $dynamicRef: '#node' } })).toEqual([
			'$dynamicAnchor: is not supported here; use "$ref" with "$defs"',
			'items.$dynamicRef: is not supported here; use "$ref" with "$defs"',
		]);
	});

	test('an $id that is not a URI, or two schemas with the same $id', () => {
		const message = 'has an "$id" that is not a URI, or two schemas with the same "$id"';
		expect(problems({ $defs: { a: { $id: 'a.json' }, b: { $id: 'a.json' } } })).toEqual([message]);
		expect(problems({ $id: 'http://[' })).toEqual([message]);
	});

	test('subschemas that are not schemas', () => {
		expect(problems({ properties: { a: 'string', b: 3 } })).toEqual([
			'properties.a: must be a schema (a JSON object, true or false), got the text "string"; write {"type": "string"}',
			'properties.b: must be a schema (a JSON object, true or false), got number 3',
		]);
		expect(problems({ properties: ['a'] })).toEqual([
			'properties: must be an object with a schema for each name, got an array',
		]);
		expect(problems({ items: [{ type: 'string' }] })).toEqual([
			'items: must be a schema (a JSON object, true or false), got an array; to give one schema for each position, use "prefixItems"',
		]);
		expect(problems({ items: null, not: 'x', additionalProperties: 1 })).toEqual([
			'items: must be a schema (a JSON object, true or false), got null',
			'not: must be a schema (a JSON object, true or false), got the text "x"',
			'additionalProperties: must be a schema (a JSON object, true or false), got number 1',
		]);
		expect(problems({ anyOf: [], allOf: {} })).toEqual([
			'anyOf: must be a non-empty list of schemas, got an array',
			'allOf: must be a non-empty list of schemas, got an object',
		]);
	});

	test('required', () => {
		expect(
			problems({ properties: { email: {}, name: {} }, required: ['emial', 'name', 'phone'] }),
		).toEqual([
			'required[0]: "emial" is not defined in "properties"; did you mean "email"?',
			'required[2]: "phone" is not defined in "properties"',
		]);
		expect(problems({ required: ['anything'] })).toEqual([]);
		expect(problems({ required: 'name' })).toEqual([
			'required: must be a list of property names, got the text "name"',
		]);
		expect(problems({ properties: { a: { type: 'string', required: true } } })).toEqual([
			'properties.a.required: must be a list of property names, got true; name required properties in the "required" list of the object that holds them, e.g. "required": ["email"]',
		]);
		expect(problems({ required: ['a', 2] })).toEqual([
			'required[1]: must be a property name, got number 2',
		]);
	});

	test('enum', () => {
		expect(problems({ enum: [] })).toEqual([
			'enum: must be a non-empty list of the allowed values, got an array',
		]);
		expect(problems({ enum: 'a' })).toEqual([
			'enum: must be a non-empty list of the allowed values, got the text "a"',
		]);
	});

	test('patterns that do not compile', () => {
		expect(problems({ pattern: '(' })).toEqual([
			'pattern: "(" is not a valid regular expression (Unterminated group)',
		]);
		expect(problems({ patternProperties: { '[a': {} } })).toEqual([
			'patternProperties["[a"]: "[a" is not a valid regular expression (Unterminated character class)',
		]);
		expect(problems({ pattern: 5 })).toEqual([
			'pattern: must be a regular expression written as text, got number 5',
		]);
	});

	test('$ref that points nowhere, outside, or at no schema', () => {
		expect(
			problems({ properties: { a: { $ref: '#/$defs/adress' } }, $defs: { address: {} } }),
		).toEqual(['properties.a.$ref: "#/$defs/adress" does not point to anything in this schema']);
		expect(problems({ $ref: 'https://example.com/schema.json' })).toEqual([
			'$ref: "https://example.com/schema.json" points outside this schema; nothing is fetched, so only references to a place or an "$id" in this schema work here',
		]);
		expect(problems({ $ref: '#address' })).toEqual([
			'$ref: "#address" names no "$anchor" in this schema',
		]);
		expect(problems({ $ref: '#/%E0' })).toEqual(['$ref: "#/%E0" has a broken %-escape']);
		expect(problems({ $ref: '#/title', title: 'x' })).toEqual([
			'$ref: "#/title" points to the text "x", which is not a schema',
		]);
		expect(problems({ $ref: 7 })).toEqual([
			'$ref: must be a reference such as "#/$defs/address", got number 7',
		]);
	});

	test('a $ref circle that never steps into the value is a problem; recursion through properties is not', () => {
		expect(problems({ $ref: '#' })).toEqual([
			'$ref: "#" leads back here without stepping into a property or an item, so checking a value against it would never end',
		]);
		expect(
			checkSchema({
				$defs: { a: { anyOf: [{ $ref: '#/$defs/b' }] }, b: { not: { $ref: '#/$defs/a' } } },
			}).map(({ path }) => path),
		).toEqual(['$defs.a.anyOf[0].$ref', '$defs.b.not.$ref']);
		expect(problems({ properties: { next: { $ref: '#' } } })).toEqual([]);
		expect(
			problems({ $defs: { node: { items: { $ref: '#/$defs/node' } } }, $ref: '#/$defs/node' }),
		).toEqual([]);
	});

	test('bounds that are not numbers, counts that are not whole, and bounds the wrong way round', () => {
		expect(
			problems({
				minimum: '1',
				maximum: null,
				exclusiveMinimum: true,
				exclusiveMaximum: 'x',
				minLength: -1,
				maxLength: 1.5,
				minItems: '2',
				maxItems: true,
				multipleOf: 0,
				uniqueItems: 'yes',
			}),
		).toEqual([
			'minimum: must be a number, got the text "1"',
			'maximum: must be a number, got null',
			'exclusiveMinimum: must be a number, got true; give the bound itself, e.g. 0 (the true/false form of older drafts is not supported)',
			'exclusiveMaximum: must be a number, got the text "x"',
			'minLength: must be a whole number of 0 or more, got number -1',
			'maxLength: must be a whole number of 0 or more, got number 1.5',
			'minItems: must be a whole number of 0 or more, got the text "2"',
			'maxItems: must be a whole number of 0 or more, got true',
			'multipleOf: must be a number greater than 0, got number 0',
			'uniqueItems: must be true or false, got the text "yes"',
		]);
		expect(
			problems({ properties: { a: { minLength: 5, maxLength: 3, minimum: 2, maximum: 1 } } }),
		).toEqual([
			'properties.a.minLength: 5 is more than maxLength 3, so no value can pass',
			'properties.a.minimum: 2 is more than maximum 1, so no value can pass',
		]);
	});

	test('annotations, unknown keywords and the content of enum, const and default are not checked', () => {
		expect(
			problems({
				description: 5,
				madeUp: { type: 'strin' },
				enum: [{ type: 'strin' }],
				const: { type: 'strin' },
				default: { type: 'strin' },
			}),
		).toEqual([]);
	});

	test('a schema that is not an object or a boolean', () => {
		expect(problems('string')).toEqual([
			'must be a schema (a JSON object, true or false), got the text "string"; write {"type": "string"}',
		]);
		expect(problems(null)).toEqual(['must be a schema (a JSON object, true or false), got null']);
	});
});
