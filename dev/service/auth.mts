/** Bearer-key authentication: every failure is a 401 with its own message. */
import type { KeyRecord } from './config.mts';
import { ApiError } from './errors.mts';

/** A key safe to show in messages: `sk-exa...ault`. */
export function maskKey(key: string): string {
	return key.length > 12 ? `${key.slice(0, 6)}...${key.slice(-4)}` : '***';
}

function unauthorized(message: string): ApiError {
	return new ApiError({
		status: 401,
		message,
		type: 'invalid_request_error',
		code: 'invalid_api_key',
	});
}

/**
 * The key named by an Authorization header. HTTP itself drops spaces at the ends of a header value,
 * so "surrounding spaces" are the ones between `Bearer ` and the key, or non-ASCII ones such as U+00A0.
 */
export function authenticate(
	header: string | undefined,
	keys: ReadonlyMap<string, KeyRecord>,
	now: number,
): KeyRecord {
	if (header === undefined) {
		throw unauthorized("Missing Authorization header: send 'Authorization: Bearer <API_KEY>'.");
	}
	if (/^Bearer\s*$/.test(header)) {
		throw unauthorized("The Authorization header has no API key after 'Bearer '.");
	}
	if (!header.startsWith('Bearer ')) {
		throw unauthorized(
			"The Authorization header must be 'Bearer <API_KEY>': the 'Bearer ' prefix is missing.",
		);
	}
	const key = header.slice('Bearer '.length);
	if (key !== key.trim()) {
		throw unauthorized(
			`The API key ${maskKey(key.trim())} has surrounding spaces: send it without spaces around it.`,
		);
	}
	const record = keys.get(key);
	if (record === undefined) {
		throw unauthorized(`Incorrect API key provided: ${maskKey(key)}.`);
	}
	if (record.expiresAt !== undefined && record.expiresAt.getTime() <= now) {
		throw unauthorized(
			`The API key ${maskKey(key)} has expired (at ${record.expiresAt.toISOString()}): create a new key.`,
		);
	}
	return record;
}
