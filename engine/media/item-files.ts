/** The binary data of an item, as the nodes read it: a file by its property name, and the names the item has. */
import { InputError } from '../failures/errors';

/** A file (an image, a PDF, ...) from the item's binary data, as n8n holds it. */
export interface BinaryFile {
	mimeType?: string;
	fileName?: string;
	bytes: Uint8Array;
}

/** The item's binary data the images and files may come from: loaded ones by property name, and every name it has. */
export interface ItemBinaries<F = BinaryFile> {
	available: string[];
	loaded: Record<string, F>;
}

/** How messages name binary data: `binary property "data" (invoice.pdf)`. */
export function binarySource(name: string, data: { fileName?: string }): string {
	return `binary property "${name}"${data.fileName ? ` (${data.fileName})` : ''}`;
}

/**
 * The item's binary property `name`, or an error that lists the properties the item has. `problem` goes
 * before what is missing; `fix` depends on where the name came from.
 */
export function binaryProperty<F>(
	binaries: ItemBinaries<F>,
	name: string,
	field: string,
	problem: string,
	fix: string,
): F {
	const data = binaries.loaded[name];
	if (data !== undefined) return data;
	const { available } = binaries;
	throw new InputError(
		field,
		`${problem}the item has no binary property "${name}"` +
			(available.length > 0 ? ` (it has: ${available.join(', ')})` : ' (it has no binary data)'),
		fix,
	);
}
