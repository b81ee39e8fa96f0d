import { quote } from './describe-value';
import { isObject } from './json-values';

/** What a local `$ref` names: the part of the schema it points to, or why it points to nothing. */
export type ResolvedRef = { ok: true; target: unknown } | { ok: false; reason: string };

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * Resolves a `$ref` inside `root`: `#` is the whole schema, `#/$defs/address` a JSON Pointer (`~1`
 * stands for `/`, `~0` for `~`, and `%xx` escapes are decoded as in any URI fragment). References
 * to other documents and `#anchor` names are not supported: a node cannot fetch schemas, and
 * anchors are rare in hand-written ones.
 */
export function resolveRef(root: unknown, ref: string): ResolvedRef {
	if (!ref.startsWith('#')) {
		return fail(
			`${quote(ref)} points outside this schema; only references that start with "#" work here`,
		);
	}
	let pointer: string;
	try {
		pointer = decodeURIComponent(ref.slice(1));
	} catch {
		return fail(`${quote(ref)} has a broken %-escape`);
	}
	if (pointer !== '' && !pointer.startsWith('/')) {
		return fail(`${quote(ref)} names an anchor; use "#" or a path such as "#/$defs/name" instead`);
	}
	let target = root;
	for (const token of pointer === '' ? [] : pointer.slice(1).split('/')) {
		const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
		if (Array.isArray(target) && ARRAY_INDEX.test(key) && Number(key) < target.length) {
			target = target[Number(key)];
		} else if (isObject(target) && Object.hasOwn(target, key)) {
			target = target[key];
		} else {
			return fail(`${quote(ref)} does not point to anything in this schema`);
		}
	}
	return { ok: true, target };
}

function fail(reason: string): ResolvedRef {
	return { ok: false, reason };
}
