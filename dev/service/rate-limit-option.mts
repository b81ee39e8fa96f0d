/**
 * The `--rate-limit` option, so that a benchmark can set a key's limit without its own config file:
 * `<key name>=<requests>/<window>[,<in flight>][@<style>]`, the window `s`, `m` or a count of either (`10s`,
 * `5m`), e.g. `limited=20/s,8` (20 requests started per second, 8 in flight), `ratelimited=2/m` or
 * `limited=60/3s@openai` (as OpenAI counts and tells it, see rate-limit-styles.mts).
 */
import { checkRateLimit, type RateLimit } from './config.mts';

const pattern = /^([^=]+)=(\d+)\/(\d*)([sm])(?:,(\d+))?(?:@([a-z-]+))?$/;

export const rateLimitSyntax = '<key name>=<requests>/<window>[,<in flight>][@<style>]';

/** The limits given by `--rate-limit` options, by key name; a later option for a name wins. */
export function parseRateLimitOptions(values: readonly string[]): Map<string, RateLimit> {
	const limits = new Map<string, RateLimit>();
	for (const value of values) {
		const match = pattern.exec(value);
		if (match === null)
			throw new Error(`--rate-limit ${value}: expected ${rateLimitSyntax}, e.g. limited=20/s,8`);
		const [, name, requests, count, unit, inFlight, style] = match;
		const windowSeconds = Number(count === '' ? 1 : count) * (unit === 'm' ? 60 : 1);
		const limit = {
			requests: Number(requests),
			windowSeconds,
			...(inFlight === undefined ? {} : { inFlight: Number(inFlight) }),
			...(style === undefined ? {} : { style }),
		};
		limits.set(name, checkRateLimit(limit, `--rate-limit ${value}`));
	}
	return limits;
}
