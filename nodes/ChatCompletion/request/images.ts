import type { ImageFields } from './input';
import { FIELDS } from '../fields';
import type { PlacedPart } from './placeholders';
import { placeholder, readBinary } from './placeholders';
import type { protocol } from '../../../engine';
import { errors, media, optionPath, values } from '../../../engine';

const DATA_URI = /^data:([^;,]*)(;[^,]*)?,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

const URL_FIX =
	'Put each URL on its own line. A space that belongs to a URL is written %20, e.g. https://example.com/my%20cat.png.';
const URLS_FIX = 'Put each URL on its own line, without commas or spaces between them.';

/**
 * Image URLs: one per line (from an expression, also one per list entry). A URL cannot hold a space, so a
 * line with one is an error, as is a line with two URLs, instead of a guess at where one ends.
 */
export function urlLines(value: unknown, field: string): string[] {
	const lines = values.textEntries(value, field).flatMap((entry) =>
		entry
			.split(/\r\n|\r|\n/)
			.map((line) => line.trim())
			.filter((line) => line !== ''),
	);
	for (const line of lines) {
		const shown = line.length > 60 ? `${line.slice(0, 60)}…` : line;
		if (line.startsWith('data:') && /\s/.test(line)) {
			throw new errors.InputError(
				field,
				`the data URI "${line.slice(0, 40)}…" has a space inside`,
				'A data URI is one run without spaces: data:<image type>;base64,<data>. Remove the spaces, or pass the image as binary data and name its property in Image Binary Properties.',
			);
		}
		// Two URLs on one line (after a comma, a space, or both) are that, not a URL with a space in it.
		if (!line.startsWith('data:') && /.[,\s](https?:|data:)/i.test(line)) {
			throw new errors.InputError(field, `"${shown}" holds more than one URL`, URLS_FIX);
		}
		if (/\s/.test(line)) {
			throw new errors.InputError(
				field,
				`"${shown}" has a space inside, but URLs are one per line`,
				URL_FIX,
			);
		}
	}
	return lines;
}

function checkImageBytes(
	bytes: Uint8Array,
	field: string,
	source: string,
	maxBytes: number,
): string {
	if (bytes.length > maxBytes) {
		throw new errors.InputError(
			field,
			`${source} is ${values.megabytes(bytes.length)}, above the limit of ${values.megabytes(maxBytes)}`,
			`Send a smaller image, or raise ${optionPath('maxImageSize')} if the model accepts larger ones.`,
		);
	}
	const type = media.sniffImage(bytes)?.mimeType;
	if (type === undefined) {
		throw new errors.InputError(
			field,
			`${source} is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name)`,
			`Pass an image file; convert other formats to PNG or JPEG first. A PDF or a text file goes in ${FIELDS.fileBinaryProperties.label} (switch on ${FIELDS.withFiles.label}).`,
		);
	}
	return type;
}

function part(url: string, detail: unknown): protocol.ImagePart {
	const image: protocol.ImagePart['image_url'] = { url };
	if (detail === 'low' || detail === 'high') image.detail = detail;
	return { type: 'image_url', image_url: image };
}

/** Binary data that a data URI from Image URLs becomes on the output item. */
export interface AddedBinary {
	name: string;
	mimeType: string;
	fileName: string;
	bytes: Buffer;
}

export const NO_BINARIES: media.ItemBinaries = { available: [], loaded: {} };

const MISSING_FIX =
	'Name one of the item\'s binary properties, or add a node that reads the image first (HTTP Request with Response Format "File", Read Files from Disk, a form upload).';

/**
 * The images of one item's request, each checked by its bytes. An image from the item's binary data, or a data
 * URI from Image URLs (which becomes binary data of the output item, `image_1`, `image_2`, ...), is a
 * placeholder in the messages (`placeholders.ts`); `sent` holds the data URI each placeholder stands for.
 */
export class ItemImages {
	readonly sent = new Map<string, string>();
	readonly added: AddedBinary[] = [];

	constructor(
		private readonly binaries: media.ItemBinaries = NO_BINARIES,
		private readonly maxBytes: number,
	) {}

	/**
	 * The placeholder for the image in binary property `name`, named in a field or by a placeholder of Messages
	 * JSON read back (`placed`).
	 */
	fromBinary(name: string, field: string, placed?: PlacedPart): string {
		const image = readBinary(this.binaries, name, field, placed, MISSING_FIX);
		if (!this.sent.has(name)) {
			const source = media.binarySource(name, image);
			const type = checkImageBytes(image.bytes, field, source, this.maxBytes);
			this.sent.set(name, `data:${type};base64,${Buffer.from(image.bytes).toString('base64')}`);
		}
		return placeholder(name, image.bytes);
	}

	/** The placeholder for a data URI, which becomes binary data of the output item under a name it does not have yet. */
	fromDataUri(uri: string, field: string): string {
		const match = DATA_URI.exec(uri);
		if (!match || match[2] !== ';base64' || !BASE64.test(match[3])) {
			throw new errors.InputError(
				field,
				`"${uri.slice(0, 40)}…" is not a base64 data URI`,
				'Write it as data:<image type>;base64,<data>, e.g. data:image/png;base64,iVBORw0KGgo...',
			);
		}
		const bytes = Buffer.from(match[3], 'base64');
		const mimeType = checkImageBytes(bytes, field, 'the data URI', this.maxBytes);
		const name = this.freeName();
		this.added.push({ name, mimeType, fileName: `${name}.${mimeType.slice(6)}`, bytes });
		this.sent.set(name, `data:${mimeType};base64,${bytes.toString('base64')}`);
		return placeholder(name, bytes);
	}

	/** `image_1`, `image_2`, ...: the first name neither the item nor an earlier data URI uses. */
	private freeName(): string {
		const taken = new Set([...this.binaries.available, ...this.added.map(({ name }) => name)]);
		let number = 1;
		while (taken.has(`image_${number}`)) number++;
		return `image_${number}`;
	}
}

/** Image parts for the URLs and data URIs listed in `value`. */
function imagePartsFromUrls(
	value: unknown,
	field: string,
	images: ItemImages,
	detail: unknown,
): protocol.ImagePart[] {
	return urlLines(value, field).map((entry) => {
		if (entry.startsWith('data:')) return part(images.fromDataUri(entry, field), detail);
		if (/^https?:\/\/[^\s/]+/i.test(entry)) return part(entry, detail);
		if (entry.length >= 64 && BASE64.test(entry)) {
			throw new errors.InputError(
				field,
				`holds what looks like base64 image data without a data: prefix ("${entry.slice(0, 16)}…")`,
				'Write it as a data URI (data:image/png;base64,<data>), or pass the image as binary data and name its property in Image Binary Properties.',
			);
		}
		throw new errors.InputError(
			field,
			`"${entry.slice(0, 60)}" is not an http(s) URL or a data URI`,
			'Give a public image URL such as https://example.com/cat.png, or a data URI.',
		);
	});
}

/** Image parts for the binary properties named in `value`, checked by their bytes. */
function imagePartsFromBinary(
	value: unknown,
	field: string,
	images: ItemImages,
	detail: unknown,
): protocol.ImagePart[] {
	return values.splitList(value, field).map((name) => {
		if (name.length >= 64 && BASE64.test(name)) {
			throw new errors.InputError(
				field,
				`holds what looks like base64 image data ("${name.slice(0, 16)}…"), but it takes the name of a binary property, e.g. data`,
				'Put base64 data in Image URLs as a data URI (data:image/png;base64,<data>), and property names here.',
			);
		}
		return part(images.fromBinary(name, field), detail);
	});
}

/** All image parts of one message: URLs and data URIs first, then binary properties. */
export function imageParts(
	fields: ImageFields,
	place: string,
	images: ItemImages,
): protocol.ImagePart[] {
	return [
		...imagePartsFromUrls(
			fields.imageUrls,
			`${place}${FIELDS.imageUrls.label}`,
			images,
			fields.imageDetail,
		),
		...imagePartsFromBinary(
			fields.imageBinaryProperties,
			`${place}${FIELDS.imageBinaryProperties.label}`,
			images,
			fields.imageDetail,
		),
	];
}
