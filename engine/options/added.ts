import { OPTIONS } from './table';
import { InputError } from '../failures/errors';
import { emptyExpression } from '../values';

/** Whether a parameter's saved value is an n8n expression (`={{ $json.text }}`). */
export const isExpression = (raw: unknown): raw is string =>
	typeof raw === 'string' && raw.startsWith('=');

/**
 * Refuses an option that was added but whose expression gives nothing for the item: `options` as n8n resolved
 * them, `raw` as the node saved them, `itemJson` the input item the expression read. An option is never quietly
 * left unset: the error names it and the field the expression did not find.
 */
export function checkAddedOptions(
	options: Record<string, unknown>,
	raw: Record<string, unknown>,
	itemJson: unknown,
): void {
	for (const spec of OPTIONS) {
		const expression = raw[spec.name];
		// An option n8n left out (hidden in this node or version) is not the item's.
		if (!(spec.name in options) || options[spec.name] !== undefined) continue;
		if (!isExpression(expression)) continue;
		throw new InputError(
			spec.label,
			emptyExpression(expression, itemJson),
			`Map a field that holds the value, or remove Options > ${spec.label} to leave it unset.`,
		);
	}
}
