/**
 * The fields of a multipart request (images/edits, audio/transcriptions and translations), checked as its JSON
 * counterpart is (body-fields.mts): the model, each text field once, the file fields in the order sent, no field
 * besides these. The test knobs come as a text field `x_local` holding a JSON object, which is how a client's
 * "extra body" reaches a multipart request.
 */
import { rejectUnknownFields, requiredModel } from './body-fields.mts';
import { invalidRequest } from './errors.mts';
import { isObject } from './json-value.mts';
import type { FormPart } from './multipart.mts';

export interface FormRequest<K> {
	model: string;
	/** The text fields by name (numbers as the text sent). */
	text: ReadonlyMap<string, string>;
	/** The file parts, in the order sent. */
	files: FormPart[];
	knobs: K;
}

/** The knobs of the `x_local` field: JSON text of an object (absent: no knobs). */
function knobsOf<K>(json: string | undefined, parseKnobs: (value: unknown) => K): K {
	if (json === undefined) return parseKnobs(undefined);
	let value: unknown;
	try {
		value = JSON.parse(json);
	} catch {
		value = undefined;
	}
	if (!isObject(value)) {
		throw invalidRequest("'x_local' must be JSON text of an object", 'x_local', 'invalid_value');
	}
	return parseKnobs(value);
}

/** Reads the parts of a multipart request whose text fields are `text` and whose file fields are `files`. */
export function formRequest<K>(
	parts: readonly FormPart[],
	known: { text: readonly string[]; files: readonly string[] },
	parseKnobs: (value: unknown) => K,
): FormRequest<K> {
	rejectUnknownFields(
		parts.map((part) => part.name),
		['model', 'x_local', ...known.text, ...known.files],
	);
	const text = new Map<string, string>();
	const files: FormPart[] = [];
	for (const part of parts) {
		const isFile = known.files.includes(part.name);
		if (isFile !== (part.filename !== undefined)) {
			const should = isFile ? 'a file (a part with a filename)' : 'a text field, not a file';
			throw invalidRequest(`'${part.name}' must be ${should}`, part.name, 'invalid_value');
		}
		if (isFile) {
			files.push(part);
		} else if (text.has(part.name)) {
			throw invalidRequest(`'${part.name}' was sent more than once`, part.name, 'invalid_value');
		} else {
			text.set(part.name, part.data.toString('utf8'));
		}
	}
	const knobs = knobsOf(text.get('x_local'), parseKnobs);
	const model = requiredModel(text.get('model'));
	text.delete('model');
	text.delete('x_local');
	return { model, text, files, knobs };
}

/** A text field as the JSON value it stands for: a number when it is one, else the text (or undefined). */
export function formValue(text: ReadonlyMap<string, string>, name: string): unknown {
	const value = text.get(name);
	return value !== undefined && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}
