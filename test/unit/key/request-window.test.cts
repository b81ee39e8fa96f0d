/** A window a 429 named (new-api): waited out from the key's own sends, refused ones too; new requests held while it is full. */
import { RequestWindow } from '../../../engine/key/request-window';

const window = { requests: 3, ms: 3000 };

test('after the refusal, the wait is until the oldest of the last sends it counts leaves the window, with a margin', () => {
	const log = new RequestWindow();
	for (const at of [0, 100, 200, 300]) log.sent(at);
	// Four sent (the fourth refused, and counted): the window has room once the second leaves it.
	expect(log.refused(window, 300)).toBe(100 + 3000 + 250 - 300);
	expect(log.holdMs(1000)).toBe(2350);
	expect(log.holdMs(3350)).toBe(0);
	// Three more fill it again: held until the first of them leaves.
	for (const at of [3350, 3360, 3370]) log.sent(at);
	expect(log.holdMs(3370)).toBe(3350 + 3250 - 3370);
});

test('when fewer of ours are in it than it counts (others fill it), a whole window', () => {
	const log = new RequestWindow();
	log.sent(0);
	expect(log.refused(window, 10)).toBe(3250);
});

test('no window named: nothing is held', () => {
	const log = new RequestWindow();
	for (let at = 0; at < 100; at++) log.sent(at);
	expect(log.holdMs(100)).toBe(0);
});
