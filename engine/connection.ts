import { ConnectionError } from './failures';

/**
 * The credential's two fields, cleaned the way users paste them.
 * Used by the credential (authentication) and by the node (URLs), so both agree.
 */

export interface Connection {
	apiKey: string;
	baseUrl: string;
}

const BEARER_PREFIX = /^bearer\s+/i;
const ENDPOINT_SUFFIX = /\/(chat\/completions|models)\/*$/i;
const VERSION_SEGMENT = /\/v\d+[a-z0-9]*$/i;

/** Removes surrounding spaces and line breaks and a pasted `Bearer ` prefix. */
export function cleanApiKey(raw: unknown): string {
	const text = typeof raw === 'string' ? raw.trim() : '';
	return text.replace(BEARER_PREFIX, '').trim();
}

/** Removes spaces, trailing slashes and a pasted endpoint path such as `/chat/completions`. */
export function normalizeBaseUrl(raw: unknown): string {
	let url = typeof raw === 'string' ? raw.trim() : '';
	url = url.replace(/\/+$/, '');
	url = url.replace(ENDPOINT_SUFFIX, '');
	return url.replace(/\/+$/, '');
}

/** Whether the base URL ends with a version segment such as `/v1`, which the service requires. */
export function hasVersionSegment(baseUrl: string): boolean {
	return VERSION_SEGMENT.test(baseUrl);
}

/** Shows a key in messages without revealing it: `sk-…1234`. */
function maskApiKey(apiKey: string): string {
	return apiKey.length > 8 ? `${apiKey.slice(0, 3)}…${apiKey.slice(-4)}` : '…';
}

/** Replaces every occurrence of the key in a text that may reach the user or a log. */
export function redactApiKey(text: string, apiKey: string): string {
	return apiKey.length >= 4 ? text.split(apiKey).join(maskApiKey(apiKey)) : text;
}

/** Reads and checks the credential data; throws a ConnectionError that says what to fix. */
export function connectionFrom(data: Record<string, unknown>): Connection {
	const apiKey = cleanApiKey(data.apiKey);
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!apiKey) {
		throw new ConnectionError(
			'The credential has no API key',
			'Open the credential and paste the key from the service console (it starts with sk-).',
		);
	}
	if (/\s/.test(apiKey)) {
		throw new ConnectionError(
			'The API key in the credential contains spaces or line breaks',
			'Copy the key again from the service console: a key is one word that starts with sk-.',
		);
	}
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new ConnectionError(
			`The Base URL "${baseUrl}" is not an http:// or https:// address`,
			'Open the credential and enter the full Base URL, e.g. https://api.example.com/v1.',
		);
	}
	return { apiKey, baseUrl };
}
