import { itemNumbers } from '../../../engine/batch/invalid-items';

describe('item numbers in the invalid-items error', () => {
	test.each([
		[[4], 'item 4'],
		[[3, 7], 'items 3, 7'],
		[[0, 1], 'items 0, 1'],
		[[10, 11, 12, 13, 14, 20], 'items 10 to 14, 20'],
		[[1, 2, 3, 5, 6, 8, 9, 10], 'items 1 to 3, 5, 6, 8 to 10'],
	])('%j reads %s', (items, text) => {
		expect(itemNumbers(items)).toBe(text);
	});
});

describe('the message names a few runs; the description all', () => {
	test.each([
		[[1, 3, 5, 7, 9, 11, 13], 4, 'items 1, 3, 5, 7 and 3 more'],
		[[0, 1, 2, 10, 20, 30, 40], 2, 'items 0 to 2, 10 and 3 more'],
		[[4, 5], 4, 'items 4, 5'],
	])('%j at most %i runs reads %s', (items, most, text) => {
		expect(itemNumbers(items, most)).toBe(text);
	});

	test('1,000 items with a problem each two apart: a short message', () => {
		const items = Array.from({ length: 1000 }, (_, n) => n * 2);
		expect(itemNumbers(items, 4)).toBe('items 0, 2, 4, 6 and 996 more');
	});
});
