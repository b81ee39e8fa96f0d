import { NO_BINARIES } from './images';
import type { FileFields } from './input';
import type { PlacedPart } from './placeholders';
import { placeholder, readBinary } from './placeholders';
import { FIELDS } from '../fields';
import type { protocol } from '../../../engine';
import { errors, media, optionPath, values } from '../../../engine';

const PDF = 'application/pdf';
const ANY_TYPE = 'application/octet-stream';
const MIME_TYPE = /^([a-z0-9][a-z0-9!#$&^_.+-]*|\*)\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$/;

const MISSING_FIX =
	'Name one of the item\'s binary properties, or add a node that reads the file first (HTTP Request with Response Format "File", Read Files from Disk, a form upload).';

/**
 * Options > Allowed File Types as lowercase MIME types (`text/*` and `*\/*` allowed); anything else names the
 * option and the entry.
 */
export function allowedFileTypes(value: string): string[] {
	const types = value
		.split(/[\s,]+/)
		.filter((entry) => entry !== '')
		.map((entry) => entry.toLowerCase());
	for (const type of types) {
		if (!MIME_TYPE.test(type)) {
			throw new errors.InputError(
				optionPath('allowedFileTypes'),
				`"${type}" is not a MIME type`,
				'List MIME types separated by commas, e.g. application/pdf, text/plain, text/csv; text/* allows every text type.',
			);
		}
	}
	return types;
}

/** Whether `type` is one of `allowed` (`text/*` covers `text/csv`, `*\/*` everything). */
function isAllowed(type: string, allowed: readonly string[]): boolean {
	const [main] = type.split('/');
	return allowed.some((entry) => entry === type || entry === `${main}/*` || entry === '*/*');
}

/**
 * What the file is: a PDF by its bytes (whatever it is named), otherwise the MIME type of its binary data
 * (without parameters such as charset); a file that claims to be a PDF but is none is refused.
 */
function fileType(file: media.BinaryFile, field: string, source: string): string {
	const instead = media.notPdf(file.bytes);
	if (instead === undefined) return PDF;
	const claimed = (file.mimeType ?? '').split(';')[0].trim().toLowerCase() || ANY_TYPE;
	if (claimed === PDF) {
		throw new errors.InputError(
			field,
			`${source} is named a PDF, but its bytes are ${instead} (a PDF starts with %PDF-)`,
			'Pass the PDF file itself; a file saved from a web page is often an HTML error page.',
		);
	}
	return claimed;
}

/**
 * The files of one item's request, each checked before anything is sent: its type allowed (Options > Allowed
 * File Types), its size (Options > Max File Size). A file is a placeholder in the messages (`placeholders.ts`);
 * `sent` holds the data URI each placeholder stands for.
 */
export class ItemFiles {
	readonly sent = new Map<string, string>();

	constructor(
		private readonly binaries: media.ItemBinaries = NO_BINARIES,
		private readonly maxBytes: number,
		private readonly allowed: readonly string[],
	) {}

	/**
	 * The file part, with a placeholder for its data, for the file in binary property `name`, named in a field
	 * or by a placeholder of Messages JSON read back (`placed`).
	 */
	fromBinary(name: string, field: string, placed?: PlacedPart): protocol.FilePart {
		const file = readBinary(this.binaries, name, field, placed, MISSING_FIX);
		if (!this.sent.has(name)) this.sent.set(name, this.dataUri(file, name, field));
		// The service is told the file's own name; binary data without one goes by its property's name.
		return {
			type: 'file',
			file: { filename: file.fileName || name, file_data: placeholder(name, file.bytes) },
		};
	}

	private dataUri(file: media.BinaryFile, name: string, field: string): string {
		const source = media.binarySource(name, file);
		const type = fileType(file, field, source);
		if (media.sniffImage(file.bytes) !== undefined) {
			throw new errors.InputError(
				field,
				`${source} is an image`,
				`Name it in ${FIELDS.imageBinaryProperties.label} (switch on ${FIELDS.withImages.label}): images go as images.`,
			);
		}
		if (!isAllowed(type, this.allowed)) {
			throw new errors.InputError(
				field,
				`${source} is of type ${type}, which ${optionPath('allowedFileTypes')} does not allow (${this.allowed.join(', ') || 'none'})`,
				`Add ${type} to ${optionPath('allowedFileTypes')} if the model reads such files, or convert the file to PDF or text first (e.g. with an Extract from File node).`,
			);
		}
		if (file.bytes.length > this.maxBytes) {
			throw new errors.InputError(
				field,
				`${source} is ${values.megabytes(file.bytes.length)}, above the limit of ${values.megabytes(this.maxBytes)}`,
				`Send a smaller file (e.g. fewer pages), or raise ${optionPath('maxFileSize')} if the model accepts larger ones.`,
			);
		}
		return `data:${type};base64,${Buffer.from(file.bytes).toString('base64')}`;
	}
}

/** File parts for the binary properties named in a message's File Binary Properties. */
export function fileParts(
	fields: FileFields,
	place: string,
	files: ItemFiles,
): protocol.FilePart[] {
	const field = `${place}${FIELDS.fileBinaryProperties.label}`;
	return values
		.splitList(fields.fileBinaryProperties, field)
		.map((name) => files.fromBinary(name, field));
}
