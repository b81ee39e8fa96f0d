import { quote } from './describe-value';

/** Keys that read well after a dot; any other key is written in brackets. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The path of property `key` below `base`: `$.customer.email`, `$["first name"]`; at the schema
 * root ('') a plain key stands alone: `properties`.
 */
export function keyPath(base: string, key: string): string {
	if (!IDENTIFIER.test(key)) return `${base}[${quote(key)}]`;
	return base === '' ? key : `${base}.${key}`;
}

/** The path of item `index` below `base`: `$.items[2]`. */
export function indexPath(base: string, index: number): string {
	return `${base}[${index}]`;
}
