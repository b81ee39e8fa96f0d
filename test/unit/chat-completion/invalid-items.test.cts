import { itemNumbers } from '../../../nodes/ChatCompletion/execute/invalid-items';

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
