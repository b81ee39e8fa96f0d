/**
 * A JSON value that satisfies a JSON schema, built from the schema alone (json-1's structured output), so
 * that tests can predict it. It covers the subset structured outputs use: `type`, `properties`, `required`,
 * `items`, `minItems`/`maxItems`, `enum` and `const` (the first value), `anyOf`/`oneOf` (the first branch),
 * local `$ref` (`#/$defs/...`), `minimum`/`maximum`. Anything else is ignored, as a model would.
 * Booleans are true unless the caller says otherwise (the `follow_schema` knob decides them from the text).
 */
import { isObject, type Json } from './json-value.mts';

/** Deeper than this, arrays are empty and objects keep only required properties, so recursive schemas end. */
const fullDepth = 8;
/** Schemas nesting deeper still (required recursion) get null there. */
const maxDepth = 32;

/** The schema that `schema` stands for: the target of its local `$ref` chain, or `{}` when a ref points nowhere. */
export function dereference(schema: unknown, root: Json): unknown {
	let current = schema;
	for (let step = 0; isObject(current) && typeof current.$ref === 'string'; step += 1) {
		if (step === maxDepth || !current.$ref.startsWith('#')) return {};
		current = current.$ref
			.slice(1)
			.split('/')
			.filter((segment) => segment !== '')
			.map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'))
			.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), root);
	}
	return current ?? {};
}

/** The JSON type to build: the first non-null of `type`, else what `properties` or `items` imply, else string. */
function typeOf(schema: Json): unknown {
	if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'null';
	if (schema.type !== undefined) return schema.type;
	if (isObject(schema.properties)) return 'object';
	return schema.items === undefined ? 'string' : 'array';
}

/** 1, moved into [minimum, maximum]; for integers the nearest integer inside. */
function numberIn(schema: Json, integer: boolean): number {
	const min = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
	const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
	const value = Math.min(Math.max(1, min), max);
	if (!integer || Number.isInteger(value)) return value;
	return Math.ceil(value) <= max ? Math.ceil(value) : Math.floor(value);
}

/** What a caller decides about the value instead of the schema. */
export interface ExampleOptions {
	/** The value of every boolean (true unless given). */
	booleans?: boolean;
}

/** A value for `schema`; its strings are the words of `text` in turn ("example" when it has none). */
export function exampleValue(schema: Json, text: string, options: ExampleOptions = {}): unknown {
	const words = text.match(/[\p{L}\p{N}]+/gu) ?? ['example'];
	let wordIndex = 0;
	const nextWord = (): string => words[wordIndex++ % words.length];

	const valueOf = (node: unknown, depth: number): unknown => {
		const resolved = dereference(node, schema);
		if (depth > maxDepth) return null;
		if (!isObject(resolved)) return nextWord();
		if ('const' in resolved) return resolved.const;
		if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return resolved.enum[0];
		const branches = resolved.anyOf ?? resolved.oneOf;
		if (Array.isArray(branches) && branches.length > 0) return valueOf(branches[0], depth + 1);
		switch (typeOf(resolved)) {
			case 'object': {
				const properties = isObject(resolved.properties) ? resolved.properties : {};
				const required = Array.isArray(resolved.required) ? resolved.required : [];
				const value: Json = {};
				for (const [name, property] of Object.entries(properties)) {
					if (depth < fullDepth || required.includes(name)) {
						value[name] = valueOf(property, depth + 1);
					}
				}
				for (const name of required) if (!(name in value)) value[name] = nextWord();
				return value;
			}
			case 'array': {
				const min = Number.isInteger(resolved.minItems) ? (resolved.minItems as number) : 0;
				const max = Number.isInteger(resolved.maxItems) ? (resolved.maxItems as number) : Infinity;
				const length = Math.min(max, Math.max(min, depth < fullDepth ? 1 : 0));
				return Array.from({ length }, () => valueOf(resolved.items, depth + 1));
			}
			case 'integer':
				return numberIn(resolved, true);
			case 'number':
				return numberIn(resolved, false);
			case 'boolean':
				return options.booleans ?? true;
			case 'null':
				return null;
			default:
				return nextWord();
		}
	};
	return valueOf(schema, 0);
}
