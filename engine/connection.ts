import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	ISupplyDataFunctions,
} from 'n8n-workflow';

import { extraHeadersFrom } from './extra-headers';
import { ConnectionError } from './failures/errors';
import { carriesSecret } from './header-secrets';

/**
 * The credential's fields, cleaned the way users paste them and checked.
 * Used by the credential (authentication) and by the node (URLs, headers), so both agree.
 *
 * The credential as n8n decrypted it is sent with each request, so n8n loads it once. The transport adds
 * the Extra Headers to n8n's request options (beside `Accept` and `Content-Type`; n8n adds `Authorization`
 * from the credential's `authenticate`), and to the credential test's `fetch`. n8n drops only
 * `Authorization` (and cookies) when it follows a redirect to another origin: Extra Headers go on with it,
 * as the headers of n8n's own header-auth credentials do.
 */

export interface Connection {
	apiKey: string;
	baseUrl: string;
	/** Extra Headers (extra-headers.ts), sent with every request; some values are secrets (header-secrets.ts). */
	extraHeaders: Record<string, string>;
	/**
	 * The credential as n8n decrypted it when the execution began: handed to n8n's request helper with every
	 * request, so that n8n does not load and decrypt it again for each one (in n8n, a database read).
	 */
	credential?: ICredentialDataDecryptedObject;
}

const BEARER_PREFIX = /^bearer\s+/i;
const ENDPOINT_SUFFIX = /\/(chat\/completions|models)\/*$/i;
const VERSION_SEGMENT = /\/v\d+[a-z0-9]*$/i;

/** Removes surrounding spaces and line breaks and a pasted `Bearer ` prefix. */
export function cleanApiKey(raw: unknown): string {
	const text = typeof raw === 'string' ? raw.trim() : '';
	return text.replace(BEARER_PREFIX, '').trim();
}

/** The Authorization header the credential sends (its `authenticate`): the cleaned key as a Bearer token. */
export function authorization(credential: ICredentialDataDecryptedObject): string {
	return `Bearer ${cleanApiKey(credential.apiKey)}`;
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

/** The site root: the Base URL without its version segment (`https://api.example.com/v1` -> `https://api.example.com`). */
export function siteRoot(baseUrl: string): string {
	return baseUrl.replace(VERSION_SEGMENT, '');
}

/** Shows a key in messages without revealing it: `sk-…1234`. */
function maskApiKey(apiKey: string): string {
	return apiKey.length > 8 ? `${apiKey.slice(0, 3)}…${apiKey.slice(-4)}` : '…';
}

/** Quoting this many characters of the key in a row, or more, is quoting the key: they are masked. */
const QUOTED_KEY_CHARACTERS = 8;

/**
 * Replaces every place in `text` that quotes the key, in whole or in part (any 8 or more characters of it
 * in a row, e.g. a service that shows the key's first 20 characters), with the key's mask `sk-…1234`.
 */
export function redactApiKey(text: string, apiKey: string): string {
	if (apiKey.length < 4) return text;
	if (apiKey.length < QUOTED_KEY_CHARACTERS) return text.split(apiKey).join(maskApiKey(apiKey));
	return maskRuns(text, apiKey, QUOTED_KEY_CHARACTERS, maskApiKey(apiKey));
}

/** Replaces every run of at least `shortest` (8 or more) characters of `secret` in a row that `text` quotes with `mask`. */
function maskRuns(text: string, secret: string, shortest: number, mask: string): string {
	if (!mayQuote(text, secret)) return text;
	let shown = '';
	let from = 0;
	for (let at = 0; at + shortest <= text.length; ) {
		const length = quotedLength(text, at, secret, shortest);
		if (length === 0) {
			at++;
			continue;
		}
		shown += text.slice(from, at) + mask;
		at += length;
		from = at;
	}
	return shown + text.slice(from);
}

/**
 * A quick test before the scan: 8 characters of a secret in a row always hold one of its 4-character pieces
 * that start at a multiple of 4, so a text without any of them quotes none of it.
 */
function mayQuote(text: string, secret: string): boolean {
	for (let at = 0; at + 4 <= secret.length; at += 4) {
		if (text.includes(secret.slice(at, at + 4))) return true;
	}
	return false;
}

/** How many characters from `at` in `text` are a run of the secret's characters (at least `shortest`), else 0. */
function quotedLength(text: string, at: number, secret: string, shortest: number): number {
	const start = text.slice(at, at + shortest);
	let longest = 0;
	for (
		let inSecret = secret.indexOf(start);
		inSecret >= 0;
		inSecret = secret.indexOf(start, inSecret + 1)
	) {
		let length = shortest;
		while (
			at + length < text.length &&
			inSecret + length < secret.length &&
			text[at + length] === secret[inSecret + length]
		) {
			length++;
		}
		longest = Math.max(longest, length);
	}
	return longest;
}

/** Values shorter than this say nothing of a secret (`1`, `yes`), and hiding them would garble the text. */
const SHORTEST_HIDDEN_VALUE = 4;

/**
 * Replaces every place in `text` that quotes a value of Extra Headers that carries a secret (`carriesSecret`,
 * header-secrets.ts) with `[<header name> value]`: the value whole, or a piece of at least half of it (and 8
 * characters), as a service that quotes a token's start shows it. A shorter piece is left, and so are the
 * values of the other headers (`x-portkey-provider: openai`, a URL), which the service's words may well name.
 */
export function redactHeaderValues(
	text: string,
	headers: Record<string, string> | undefined,
): string {
	let shown = text;
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (value.length < SHORTEST_HIDDEN_VALUE || !carriesSecret(name, value)) continue;
		const mask = `[${name} value]`;
		shown =
			value.length < QUOTED_KEY_CHARACTERS
				? shown.split(value).join(mask)
				: maskRuns(
						shown,
						value,
						Math.max(QUOTED_KEY_CHARACTERS, Math.ceil(value.length / 2)),
						mask,
					);
	}
	return shown;
}

/** The one credential type this package defines. */
export const CREDENTIAL_TYPE = 'chatCompletionsApi';

/** The node's credential, read and checked: what `connectionFrom` gives for it. */
export async function readConnection(
	context: Pick<IExecuteFunctions | ISupplyDataFunctions | ILoadOptionsFunctions, 'getCredentials'>,
): Promise<Connection> {
	return connectionFrom(await context.getCredentials(CREDENTIAL_TYPE));
}

/** Reads and checks the credential data; throws a ConnectionError that says what to fix. */
export function connectionFrom(data: ICredentialDataDecryptedObject): Connection {
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
	return { apiKey, baseUrl, extraHeaders: extraHeadersFrom(data.extraHeaders), credential: data };
}
