import type { SchemaProblem, Violation } from './types';

/**
 * The first `max` violations (or schema problems) on one line, then how many more there are:
 * `$.customer.email: is required but missing; $.status: must be one of "open", "closed", got
 * "pending"; and 4 more`. Made for a node's error message and for the repair request to the model.
 */
export function describeViolations(
	violations: readonly (Violation | SchemaProblem)[],
	max = 3,
): string {
	const shown = violations
		.slice(0, max)
		.map(({ path, message }) => (path === '' ? message : `${path}: ${message}`));
	const rest = violations.length - shown.length;
	if (rest > 0) shown.push(`and ${rest} more`);
	return shown.join('; ');
}
