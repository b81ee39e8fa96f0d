import type { INodeProperties } from 'n8n-workflow';

import { ConnectionError } from './failures/errors';
import { looksLikeKey, SECRET_HEADERS_RULE } from './header-secrets';
import { OWN_HEADERS, ownHeaderNames } from './own-headers';

/**
 * The credential's Extra Headers: a JSON object of header names and text values that every request of the
 * package carries (gateways and proxies route, attribute and authorise by them). Some values are secrets
 * (header-secrets.ts): no message here quotes a value.
 *
 * Checked before any request: JSON, header names, no line break, never a header the package or the
 * transport sets itself (Authorization, Content-Type, Content-Length, ...).
 */

/** A line break in a value would start another header. */
const BREAK_IN_VALUE = /[\r\n]/;

/** Any other character a header value cannot carry (Node refuses them too): controls, and beyond Latin-1. */
const NOT_IN_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Where a name stops being a header name. */
const NOT_IN_NAME = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;

const NAME_FIX =
	'A header name (RFC 7230 token) is one word of letters, digits and - (no spaces, colons or quotes), e.g. X-Title; its value goes after the colon of the JSON object.';

/**
 * A header name that is not one, in words: named whole, with the name it may have meant when spaces were all
 * that was wrong (`"X Title"`: write `"X-Title"`), unless what follows the first wrong character may be a value pasted with it (after a colon,
 * or a word that looks like a key), which is not shown.
 */
function badName(name: string, bad: number): { message: string; fix: string } {
	const rest = name.slice(bad);
	if (rest.includes(':') || rest.split(/\s+/).some(looksLikeKey)) {
		return {
			message: `has a header name that is not valid: ${JSON.stringify(name[bad])} after "${name.slice(0, bad)}"`,
			fix: NAME_FIX,
		};
	}
	const words = name.trim().split(/\s+/);
	const meant = words.every((word) => !NOT_IN_NAME.test(word)) ? words.join('-') : undefined;
	return {
		message: `has a header name that is not valid: ${JSON.stringify(name)} (${JSON.stringify(name[bad])} cannot be in a header name)`,
		fix: meant === undefined ? NAME_FIX : `Write it as ${JSON.stringify(meant)}. ${NAME_FIX}`,
	};
}

const FIELD = 'Extra Headers in the credential';

const EXAMPLE = 'e.g. {"X-Title": "My workflow"}';

const refused = (message: string, fix: string) => new ConnectionError(`${FIELD} ${message}`, fix);

/** The field's JSON, parsed: its text (n8n keeps a JSON field as text) or an object already parsed. */
function parsed(raw: unknown): unknown {
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return {};
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		// The parser's own message quotes the text, which holds the values: it is not shown.
		throw refused(
			'is not valid JSON',
			`Open the credential and write Extra Headers as a JSON object of header names and text values, ${EXAMPLE}; or leave it empty.`,
		);
	}
}

/**
 * The headers of the credential's Extra Headers (`raw`, empty or absent: none), checked before any request:
 * a JSON object whose names are header names, whose values are text without line breaks, and that sets
 * none of the headers the package or the transport sets itself (`OWN_HEADERS`: Authorization, Content-Type,
 * Content-Length, ...). Throws a ConnectionError that names the header and the fix.
 */
export function extraHeadersFrom(raw: unknown): Record<string, string> {
	const value = parsed(raw ?? {});
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw refused(
			'is not a JSON object',
			`Open the credential and write Extra Headers as an object of header names and text values, ${EXAMPLE}.`,
		);
	}
	const headers: Record<string, string> = {};
	const seen = new Map<string, string>();
	for (const [name, text] of Object.entries(value as Record<string, unknown>)) {
		const bad = name.search(NOT_IN_NAME);
		if (name === '') throw refused('has an empty header name', NAME_FIX);
		if (bad >= 0) {
			const { message, fix } = badName(name, bad);
			throw refused(message, fix);
		}
		const own = OWN_HEADERS[name.toLowerCase()];
		if (own !== undefined) {
			throw refused(`cannot set ${name}: ${own}`, `Remove ${name} from Extra Headers.`);
		}
		const same = seen.get(name.toLowerCase());
		if (same !== undefined) {
			throw refused(
				`has ${same} and ${name}, which are the same header (names do not differ by case)`,
				`Keep one of them in Extra Headers.`,
			);
		}
		if (typeof text !== 'string') {
			throw refused(
				`gives ${name} a value that is not text`,
				`Write the value of ${name} in quotes, e.g. {"${name}": "1"}.`,
			);
		}
		if (BREAK_IN_VALUE.test(text)) {
			throw refused(
				`gives ${name} a value with a line break`,
				`Write the value of ${name} on one line (a line break would start another header).`,
			);
		}
		if (NOT_IN_VALUE.test(text)) {
			throw refused(
				`gives ${name} a value with a character a header cannot carry (a control character, or one beyond Latin-1)`,
				`Write the value of ${name} in ASCII, or percent-encode the other characters.`,
			);
		}
		seen.set(name.toLowerCase(), name);
		headers[name] = text;
	}
	return headers;
}

/**
 * The credential's Extra Headers field: a JSON object, never one of the headers the package sets itself
 * (`ownHeaderNames`), its values masked by the one rule (`SECRET_HEADERS_RULE`).
 */
export const extraHeadersProperty: INodeProperties = {
	displayName: 'Extra Headers',
	name: 'extraHeaders',
	type: 'json',
	default: '',
	placeholder: 'e.g. {"HTTP-Referer": "https://example.com", "X-Title": "My workflow"}',
	hint: `A JSON object of header names and text values. It cannot set the headers the node sets itself: ${ownHeaderNames()
		.map((name) => (name === 'Authorization' ? 'Authorization (the API Key)' : name))
		.join(', ')}.`,
	description: `Headers sent with every request to the service, e.g. the ones a gateway or a company proxy routes, attributes or authorises by. Whoever may open this credential (its owner, and those it is shared with) sees the values here. ${SECRET_HEADERS_RULE}`,
};
