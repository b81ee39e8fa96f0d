import { describe as describeValue, emptyExpression } from '../../engine/values';

describe('values in messages', () => {
	test.each([
		[0, '0'],
		[1.5, '1.5'],
		[true, 'true'],
		[undefined, 'nothing'],
		[null, 'null'],
		['warm', 'the text "warm"'],
		[[1], 'an array'],
		[{ a: 1 }, 'an object'],
	])('%j reads as %s', (value, words) => {
		expect(describeValue(value)).toBe(words);
	});
});

describe('why an expression gave nothing', () => {
	const item = { question: 'Hi', customer: { name: 'Ada' }, list: [] };
	test.each([
		[
			'={{ $json.text }}',
			'is empty because its expression {{ $json.text }} finds no field "text" in the input item',
		],
		[
			'={{ $json["the text"] }}',
			'is empty because its expression {{ $json["the text"] }} finds no field "the text" in the input item',
		],
		[
			'={{ $json.customer.email }}',
			'is empty because its expression {{ $json.customer.email }} finds no "email" in the input item\'s field "customer"',
		],
		[
			'={{ $json.customer?.address?.city }}',
			'is empty because its expression {{ $json.customer?.address?.city }} finds no "address" in the input item\'s field "customer"',
		],
		[
			'={{ $json.list[0] }}',
			'is empty because its expression {{ $json.list[0] }} finds no "0" in the input item\'s field "list"',
		],
		[
			'={{ $("Form").item.json.text }}',
			'is empty because its expression {{ $("Form").item.json.text }} gives nothing',
		],
		[
			'=Hello {{ $json.nope }}',
			'is empty because its expression Hello {{ $json.nope }} gives nothing',
		],
	])('%s', (expression, words) => {
		expect(emptyExpression(expression, item)).toBe(words);
	});
});
