/**
 * A `file` content part checked as real services check it: `file.file_data` a base64 data URI (a `file_id`
 * is refused: this service stores no files), `file.filename` text when given, a PDF that starts with `%PDF-`,
 * and only PDFs and text files; then read for its text (what the models answer from).
 */
import { readDataUri } from '../data-uri.mts';
import { invalidRequest } from '../errors.mts';
import { describe, isObject } from '../json-value.mts';
import { pdfText } from './pdf-text.mts';

export interface FileRef {
	filename?: string;
	mediaType: string;
	/** The text the file shows: a PDF's shown strings, a text file's content. */
	text: string;
}

const badFile = (message: string, param: string) =>
	invalidRequest(`${param}: ${message}`, param, 'invalid_file');

export function parseFilePart(part: Record<string, unknown>, at: string): FileRef {
	const file = part.file;
	if (!isObject(file)) {
		throw badFile(
			`a file part needs 'file' (an object with file_data), got ${describe(file ?? null)}`,
			`${at}.file`,
		);
	}
	if (file.file_id !== undefined) {
		throw badFile(
			"'file_id' is not supported here (no files are stored): send the file in 'file_data'",
			`${at}.file.file_id`,
		);
	}
	if (file.filename !== undefined && typeof file.filename !== 'string') {
		throw badFile(
			`'filename' must be a string, got ${describe(file.filename)}`,
			`${at}.file.filename`,
		);
	}
	if (typeof file.file_data !== 'string') {
		throw badFile(
			`'file_data' must be a data URI (data:<mime type>;base64,<data>), got ${describe(file.file_data ?? null)}`,
			`${at}.file.file_data`,
		);
	}
	const read = readDataUri(file.file_data);
	if ('problem' in read) throw badFile(read.problem, `${at}.file.file_data`);
	const { mediaType, bytes } = read;
	const filename = file.filename;
	if (mediaType === 'application/pdf') {
		if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
			throw badFile('the data is not a PDF (it does not start with %PDF-)', `${at}.file.file_data`);
		}
		return { filename, mediaType, text: pdfText(bytes) };
	}
	if (mediaType.startsWith('text/')) return { filename, mediaType, text: bytes.toString('utf8') };
	throw badFile(
		`files of type ${mediaType || 'unknown'} are not supported: send a PDF or a text file`,
		`${at}.file.file_data`,
	);
}
