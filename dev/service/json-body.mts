/** A request body as JSON: the object it must be, or the 400 an OpenAI-style service answers. */
import { invalidRequest } from './errors.mts';
import { describe, isObject, type Json } from './json-value.mts';

export function parseJsonBody(rawBody: string): Json {
	let parsed: unknown;
	try {
		parsed = JSON.parse(rawBody);
	} catch (error) {
		throw invalidRequest(
			`We could not parse the JSON body of your request: ${(error as Error).message}`,
			null,
		);
	}
	if (!isObject(parsed)) {
		throw invalidRequest(`The request body must be a JSON object, got ${describe(parsed)}`, null);
	}
	return parsed;
}
