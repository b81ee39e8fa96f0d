/** A base64 data URI read: its media type and bytes, or what is wrong with it. */

export type DataUri = { mediaType: string; bytes: Buffer } | { problem: string };

export function readDataUri(uri: string): DataUri {
	const match = /^data:([^,;]*)[^,]*;base64,(.*)$/is.exec(uri);
	if (match === null) {
		return { problem: 'a data URI must have the form data:<mime type>;base64,<data>' };
	}
	const data = match[2].replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
		return { problem: 'the data of the data URI is not valid base64' };
	}
	return { mediaType: match[1].toLowerCase(), bytes: Buffer.from(data, 'base64') };
}
