/**
 * The test knobs sent as a header, for clients behind a gateway that forwards only the body fields it knows
 * (Portkey drops `x_local`, but forwards the headers named in its `x-portkey-forward-headers`): the
 * `x-local-knobs` header, JSON text of an object, is the `x_local` of a JSON body that has none.
 */
import { invalidRequest } from './errors.mts';
import { isObject, type Json } from './json-value.mts';

export const KNOB_HEADER = 'x-local-knobs';

/** The header's knobs (undefined when there is no header); a 400 when it is not JSON text of an object. */
export function headerKnobs(header: string | string[] | undefined): Json | undefined {
	if (typeof header !== 'string') return undefined;
	let knobs: unknown;
	try {
		knobs = JSON.parse(header);
	} catch {
		knobs = undefined;
	}
	if (!isObject(knobs)) {
		throw invalidRequest(
			`'${KNOB_HEADER}' must be JSON text of an object`,
			KNOB_HEADER,
			'invalid_value',
		);
	}
	return knobs;
}

/** The body with the header's knobs as its `x_local` (the body as it came when there is no header or no JSON object). */
export function withHeaderKnobs(header: string | string[] | undefined, rawBody: string): string {
	const knobs = headerKnobs(header);
	if (knobs === undefined) return rawBody;
	let body: unknown;
	try {
		body = JSON.parse(rawBody);
	} catch {
		return rawBody;
	}
	if (!isObject(body) || body.x_local !== undefined) return rawBody;
	return JSON.stringify({ ...body, x_local: knobs });
}
