/** The media type a data URI names (`data:image/png;base64,...` -> `image/png`); undefined for anything else. */
export function dataUriType(uri: string | undefined): string | undefined {
	return uri?.startsWith('data:') ? uri.slice(5).split(/[;,]/)[0] : undefined;
}
