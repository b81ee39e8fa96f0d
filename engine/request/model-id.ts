import { InputError } from '../failures/errors';
import { modelProperty } from '../models/property';
import { describe } from '../values';

/** The Model field's ID, trimmed: not empty, no spaces. */
export function checkModel(value: unknown): string {
	const model = typeof value === 'string' ? value.trim() : '';
	if (model === '') {
		throw new InputError(
			modelProperty.displayName,
			value === '' || value === undefined || value === null
				? 'is empty'
				: `must be text, got ${describe(value)}`,
			'Choose a model from the list, or switch to "ID" and type the model ID.',
		);
	}
	if (/\s/.test(model)) {
		throw new InputError(
			modelProperty.displayName,
			`"${model}" contains spaces`,
			'Model IDs have no spaces: check the ID in the list.',
		);
	}
	return model;
}
