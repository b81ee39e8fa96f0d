/**
 * Which values of the credential's Extra Headers are secrets, the one rule for it: the messages mask those
 * (`redactHeaderValues`, connection.ts) and show the others as they are, since a routing value such as
 * `x-portkey-provider: openai` or a URL protects nothing and, replaced inside other words, garbles them.
 *
 * The rule: a name with token, secret, auth, ... or the word key, a value that looks like a key; the
 * credential's field description says it from here.
 */

/** A header whose name holds one of these carries a secret, whatever its value looks like. */
const SECRET_NAME = /token|secret|auth|password|cookie|signature/i;

/** Or one of whose words (between `-`, `_` or `.`) is a key: `X-Api-Key`, `apikey`, not Portkey's `x-portkey-` prefix. */
const KEY_WORD = /^(.*(api|access|private|secret|session|master|subscription|virtual))?keys?$/i;

/** A value this long or longer, without spaces, may be a key. */
const KEY_LENGTH = 16;

/** Bits of entropy a character (Shannon's, over the value's own characters) from which a value reads as random. */
const KEY_ENTROPY = 3.5;

/** Shannon's entropy of `text`, in bits a character. */
function entropy(text: string): number {
	const counts = new Map<string, number>();
	for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
	let bits = 0;
	for (const count of counts.values()) {
		const share = count / text.length;
		bits -= share * Math.log2(share);
	}
	return bits;
}

/**
 * Whether `value` looks like a key: long (16 characters or more), without spaces, not a URL, letters and
 * digits mixed, and high in entropy (3.5 bits a character or more), as `sk-...`, `pk-lf-...` or a random token is.
 */
export function looksLikeKey(value: string): boolean {
	return (
		value.length >= KEY_LENGTH &&
		!/\s/.test(value) &&
		!value.includes('://') &&
		/[a-z]/i.test(value) &&
		/\d/.test(value) &&
		entropy(value) >= KEY_ENTROPY
	);
}

/** Whether the header `name: value` of Extra Headers carries a secret (see `SECRET_HEADERS_RULE`). */
export function carriesSecret(name: string, value: string): boolean {
	return (
		SECRET_NAME.test(name) ||
		name.split(/[-_.]/).some((word) => KEY_WORD.test(word)) ||
		looksLikeKey(value)
	);
}

/** The rule in users' words: the credential's Extra Headers field and docs/credential.md say it so. */
export const SECRET_HEADERS_RULE =
	'The values of headers that carry secrets (a name with token, secret, auth, password, cookie or signature in it, or the word key, as X-Api-Key or apikey but not the x-portkey- prefix; or a value that looks like a key: 16 characters or more without spaces, letters and digits mixed, random) never show in errors, items or logs, whole or a large piece of them; other values (e.g. x-portkey-provider: openai, a URL, a site title) show as they are.';

/** The headers of `headers` that carry no secret (`carriesSecret`): what may go to another host than the key's. */
export function withoutSecrets(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers).filter(([name, value]) => !carriesSecret(name, value)),
	);
}
