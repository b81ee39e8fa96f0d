/** Pacing from the x-ratelimit headers: what a reply says is left, less what went since its request, may go; then the reset. */
import { Pacer } from '../../../engine/run/pacer';

const now = 1_000_000;
const headers = (remaining: number, reset: string, limit = 10) => ({
	'x-ratelimit-limit-requests': String(limit),
	'x-ratelimit-remaining-requests': String(remaining),
	'x-ratelimit-reset-requests': reset,
});

/** Takes requests while the pacer lets them go at `at`; returns how many went. */
function sendWhileAllowed(pacer: Pacer, at: number): number {
	let sent = 0;
	while (pacer.holdMs(at) === 0 && sent < 100) {
		pacer.take();
		sent++;
	}
	return sent;
}

test('with nothing said, nothing is held', () => {
	expect(sendWhileAllowed(new Pacer(), now)).toBe(100);
});

test('what is left, less what was sent after the request the reply answers, may go; then held until the reset', () => {
	const pacer = new Pacer();
	const first = pacer.take();
	pacer.take();
	pacer.take();
	// The reply to the first request: 4 left when it was counted; two more went since.
	pacer.observe(headers(4, '1.5s'), first, now);
	expect(sendWhileAllowed(pacer, now)).toBe(2);
	expect(pacer.holdMs(now)).toBe(1500);
	expect(pacer.holdMs(now + 1000)).toBe(500);
	// Full again at the reset: the limit may go, no more until a reply says more.
	expect(sendWhileAllowed(pacer, now + 1500)).toBe(10);
	expect(pacer.holdMs(now + 1500)).toBe(1500);
});

test("an older request's reply does not override what a later one said", () => {
	const pacer = new Pacer();
	const first = pacer.take();
	const second = pacer.take();
	pacer.observe(headers(0, '2s'), second, now);
	pacer.observe(headers(8, '100ms'), first, now);
	expect(pacer.holdMs(now)).toBe(2000);
});

test('tokens: held once what is left does not pay for an average reply', () => {
	const pacer = new Pacer();
	const place = pacer.take();
	pacer.spent(300);
	pacer.observe(
		{
			'x-ratelimit-remaining-tokens': '700',
			'x-ratelimit-reset-tokens': '6s',
			'x-ratelimit-limit-tokens': '1000',
		},
		place,
		now,
	);
	expect(sendWhileAllowed(pacer, now)).toBe(2);
	expect(pacer.holdMs(now)).toBe(6000);
});

test('when the service counts more than went from here (other workers), only our share of what is left is taken', () => {
	const pacer = new Pacer();
	const first = pacer.take();
	pacer.observe(headers(100, '2s', 100), first, now);
	for (let sent = 0; sent < 9; sent++) pacer.take();
	// Between the two replies 9 went from here and the service counted 40: ours is about a quarter, taken half
	// and half with what was known (1): 0.6125 of the 60 left may go.
	pacer.observe(headers(60, '2s', 100), first + 9, now);
	expect(sendWhileAllowed(pacer, now)).toBe(Math.floor(60 * 0.6125));
	expect(pacer.holdMs(now)).toBe(2000);
});
