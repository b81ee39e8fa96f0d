/**
 * A multipart/form-data body (RFC 7578) read into its parts, in order, the way a gateway reads an upload:
 * every part needs `Content-Disposition: form-data; name="..."`, a file part has a `filename` and may say its
 * `Content-Type`; a body that does not follow the format is a 400 saying where it breaks.
 */
import { invalidRequest, type ApiError } from './errors.mts';

export interface FormPart {
	name: string;
	/** Set for a file part (a part with a `filename`, possibly empty). */
	filename?: string;
	/** The part's Content-Type header, lower-cased, without parameters; undefined when it has none. */
	contentType?: string;
	data: Buffer;
}

const CRLF = '\r\n';

function malformed(problem: string): ApiError {
	return invalidRequest(`The multipart/form-data body could not be read: ${problem}`, null);
}

/** The boundary a multipart/form-data Content-Type names; a 400 for another type or a missing boundary. */
function boundaryOf(contentType: string | undefined): string {
	const [mediaType, ...parameters] = (contentType ?? '').split(';');
	if (mediaType.trim().toLowerCase() !== 'multipart/form-data') {
		throw invalidRequest(
			`Content-Type must be multipart/form-data for this endpoint, got ${contentType === undefined ? 'none' : `'${contentType}'`}`,
			null,
		);
	}
	for (const parameter of parameters) {
		const match = /^\s*boundary\s*=\s*(?:"([^"]+)"|([^\s";]+))\s*$/i.exec(parameter);
		const boundary = match?.[1] ?? match?.[2];
		if (boundary !== undefined && boundary.length <= 70) return boundary;
	}
	throw malformed('its Content-Type names no boundary (1 to 70 characters)');
}

/** The value of `name` among the parameters of a header (`form-data; name="x"; filename="y.png"`). */
function parameter(header: string, name: string): string | undefined {
	const pattern = new RegExp(`;\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i');
	const match = pattern.exec(header);
	if (match === null) return undefined;
	return match[1] === undefined ? match[2] : match[1].replace(/\\(.)/g, '$1');
}

/** One part: its header lines, a blank line, its data. */
function readPart(raw: Buffer, at: number): FormPart {
	const headerEnd = raw.indexOf(`${CRLF}${CRLF}`);
	if (headerEnd < 0) throw malformed(`part ${at + 1} has no blank line after its headers`);
	const headers = new Map<string, string>();
	for (const line of raw.toString('utf8', 0, headerEnd).split(CRLF)) {
		const colon = line.indexOf(':');
		if (colon <= 0) throw malformed(`part ${at + 1} has a header line without a name: '${line}'`);
		headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	const disposition = headers.get('content-disposition') ?? '';
	const name = parameter(disposition, 'name');
	if (!/^form-data\s*(;|$)/i.test(disposition) || name === undefined || name === '') {
		throw malformed(`part ${at + 1} has no Content-Disposition: form-data with a name`);
	}
	const filename = parameter(disposition, 'filename');
	const contentType = headers.get('content-type')?.split(';')[0].trim().toLowerCase();
	return {
		name,
		...(filename === undefined ? {} : { filename }),
		...(contentType === undefined ? {} : { contentType }),
		data: raw.subarray(headerEnd + 2 * CRLF.length),
	};
}

/** Reads `body` as the multipart/form-data that `contentType` announces; throws a 400 ApiError where it is not. */
export function parseMultipart(contentType: string | undefined, body: Buffer): FormPart[] {
	const delimiter = `--${boundaryOf(contentType)}`;
	const separator = `${CRLF}${delimiter}`;
	// The first delimiter starts the body (or ends a preamble, which is ignored).
	let start = body.subarray(0, delimiter.length).toString('latin1') === delimiter ? 0 : -1;
	if (start < 0) {
		const found = body.indexOf(separator);
		if (found < 0) throw malformed(`the boundary '${delimiter.slice(2)}' is nowhere in the body`);
		start = found + CRLF.length;
	}
	const parts: FormPart[] = [];
	let cursor = start + delimiter.length;
	for (;;) {
		const after = body.subarray(cursor, cursor + 2).toString('latin1');
		if (after === '--') return parts;
		if (after !== CRLF)
			throw malformed(`the boundary after part ${parts.length} is not followed by a line end`);
		const end = body.indexOf(separator, cursor + CRLF.length);
		if (end < 0) throw malformed('the body ends without its closing boundary');
		parts.push(readPart(body.subarray(cursor + CRLF.length, end), parts.length));
		cursor = end + separator.length;
	}
}
