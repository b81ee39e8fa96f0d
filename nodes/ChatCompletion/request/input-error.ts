/** A problem with what the user entered: which field, what is wrong, and how to fix it. */
export class InputError extends Error {
	constructor(
		readonly field: string,
		problem: string,
		readonly fix: string,
	) {
		super(`${field}: ${problem}`);
		this.name = 'InputError';
	}
}
