import { InputError } from '../failures/errors';
import { optionLabel } from '../options/table';
import { describe } from '../values';

const FIX =
	'Give model IDs one per line or separated by commas, e.g. "model-a, model-b", or an expression that gives an array of IDs.';

/**
 * Options > Fallback Models as model IDs in order: text with one ID per line or separated by commas, or an
 * array (from an expression). The Model field's own ID and repeats are left out; empty or unset: none.
 */
export function fallbackModels(value: unknown, model: string): string[] {
	if (value === undefined || value === null) return [];
	const label = optionLabel('fallbackModels');
	let entries: unknown[];
	if (typeof value === 'string') entries = value.split(/[\n,]/);
	else if (Array.isArray(value)) entries = value;
	else
		throw new InputError(
			label,
			`must be text or an array of model IDs, got ${describe(value)}`,
			FIX,
		);
	const models: string[] = [];
	for (const entry of entries) {
		if (typeof entry !== 'string') {
			throw new InputError(label, `has an entry that is not a model ID: ${describe(entry)}`, FIX);
		}
		const id = entry.trim();
		if (id === '' || id === model || models.includes(id)) continue;
		if (/\s/.test(id)) {
			throw new InputError(label, `"${id}" contains spaces`, `Model IDs have no spaces. ${FIX}`);
		}
		models.push(id);
	}
	return models;
}
