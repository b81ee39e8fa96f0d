import { isObject } from './json-values';
import { refTarget, type PreparedSchema } from './library';
import { indexPath, keyPath } from './path';

/**
 * The steps of a location in the library's output (`#/items/0/price`, `#/properties/a/$ref/type`):
 * each step a JSON Pointer token, written as in a URI fragment.
 */
export function locationSteps(location: string): string[] {
	return location
		.split('/')
		.slice(1)
		.map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The part of the schema a keyword location leads to; a `$ref` step goes where it points. */
export function schemaAt(prepared: PreparedSchema, steps: readonly string[]): unknown {
	let schema: unknown = prepared.root;
	for (const step of steps) {
		schema = step === '$ref' ? refTarget(schema, prepared) : child(schema, step);
	}
	return schema;
}

/** The part of the value an instance location names, and its path as messages write it. */
export function valueAt(
	value: unknown,
	steps: readonly string[],
): { value: unknown; path: string } {
	let path = '$';
	for (const step of steps) {
		path = Array.isArray(value) ? indexPath(path, Number(step)) : keyPath(path, step);
		value = child(value, step);
	}
	return { value, path };
}

function child(container: unknown, step: string): unknown {
	if (Array.isArray(container)) return container[Number(step)];
	return isObject(container) && Object.hasOwn(container, step) ? container[step] : undefined;
}
