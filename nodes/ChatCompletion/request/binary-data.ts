import type { BinaryFile, ItemBinaries } from './input';
import { errors } from '../../../engine';

/** `4.2 MB`: a size as messages show it. */
export function megabytes(size: number): string {
	return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** How messages name binary data: `binary property "data" (invoice.pdf)`. */
export function binarySource(name: string, data: BinaryFile): string {
	return `binary property "${name}"${data.fileName ? ` (${data.fileName})` : ''}`;
}

/**
 * The item's binary property `name`, or an error that lists the properties the item has. `problem` goes
 * before what is missing; `fix` depends on where the name came from.
 */
export function binaryProperty(
	binaries: ItemBinaries,
	name: string,
	field: string,
	problem: string,
	fix: string,
): BinaryFile {
	const data = binaries.loaded[name];
	if (data !== undefined) return data;
	const { available } = binaries;
	throw new errors.InputError(
		field,
		`${problem}the item has no binary property "${name}"` +
			(available.length > 0 ? ` (it has: ${available.join(', ')})` : ' (it has no binary data)'),
		fix,
	);
}
