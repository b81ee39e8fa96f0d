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
		['={{ $json.text }}', 'its expression {{ $json.text }} gives nothing: the input item has no field "text"'],
		['={{ $json["the text"] }}', 'its expression {{ $json["the text"] }} gives nothing: the input item has no field "the text"'],
		['={{ $json.customer.email }}', 'its expression {{ $json.customer.email }} gives nothing: the input item\'s field "customer" has no "email"'],
		['={{ $json.customer?.address?.city }}', 'its expression {{ $json.customer?.address?.city }} gives nothing: the input item\'s field "customer" has no "address"'],
		['={{ $json.list[0] }}', 'its expression {{ $json.list[0] }} gives nothing: the input item\'s field "list" has no "0"'],
		['={{ $("Form").item.json.text }}', 'its expression {{ $("Form").item.json.text }} gives nothing'],
		['=Hello {{ $json.nope }}', 'its expression Hello {{ $json.nope }} gives nothing'],
	])('%s', (expression, words) => {
		expect(emptyExpression(expression, item)).toBe(words);
	});
});
