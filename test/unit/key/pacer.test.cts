/** Pacing from the x-ratelimit headers: what a reply says is left, less what went since its request, may go; then the reset. */
import { Pacer } from '../../../engine/key/pacer';

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
	pacer.settle();
	for (let sent = 0; sent < 9; sent++) pacer.take();
	// The first 8 of them were answered (without headers) before the last one's reply.
	for (let answered = 0; answered < 8; answered++) pacer.settle();
	// Between the two replies 9 went from here and the service counted 40: ours is about a quarter, taken half
	// and half with what was known (1): 0.6125 of the 60 left may go.
	pacer.observe(headers(60, '2s', 100), first + 9, now);
	expect(sendWhileAllowed(pacer, now)).toBe(Math.floor(60 * 0.6125));
	expect(pacer.holdMs(now)).toBe(2000);
});

test('requests still unanswered when a reply comes are not taken as counted in it: they may reach the service after it', () => {
	const pacer = new Pacer();
	const places = Array.from({ length: 64 }, () => pacer.take());
	// The service allows 70 in its window. The 64th request arrived first (on a kept connection), the others
	// are still on their way: its reply says 69 left, but 63 more are coming.
	pacer.observe(headers(69, '1s', 70), places[63], now);
	pacer.settle();
	expect(sendWhileAllowed(pacer, now)).toBe(6);
	// The reply of an early request, counted first but answered late, does not raise what may go.
	pacer.observe(headers(68, '1s', 70), places[0], now);
	pacer.settle();
	expect(pacer.holdMs(now)).toBe(1000);
});

test("past the tightest figure's reset, a later reply that tells of a later reset says what is left, not a full bucket", () => {
	const pacer = new Pacer();
	const places = Array.from({ length: 64 }, () => pacer.take());
	// A fixed window of 70 ends 29 ms after the burst went (LiteLLM rounds the reset up to 1 s): the first
	// request was counted in it, the others in the next window.
	pacer.observe(headers(69, '1', 70), places[0], now);
	pacer.settle();
	for (const place of places.slice(1)) {
		pacer.observe(headers(70 - (place - 1), '2', 70), place, now + 50);
		pacer.settle();
	}
	// The first reply less the 63 unanswered then is the tightest figure: 6 may go, then held until its reset.
	expect(sendWhileAllowed(pacer, now + 50)).toBe(6);
	expect(pacer.holdMs(now + 50)).toBe(950);
	// At its reset the next window's last reply says 7 were left (6 went since), not a full window of 70.
	expect(sendWhileAllowed(pacer, now + 1000)).toBe(1);
	expect(pacer.holdMs(now + 1000)).toBe(1050);
});
