import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

import { fieldReference, textAt } from './field-reference';

/** Whether a saved parameter value holds no expression anywhere (expressions are strings starting with "="). */
function isConstant(raw: unknown): boolean {
	if (typeof raw === 'string') return !raw.startsWith('=');
	if (Array.isArray(raw)) return raw.every(isConstant);
	if (typeof raw === 'object' && raw !== null) return Object.values(raw).every(isConstant);
	return true;
}

/**
 * The node's parameters for one item, as n8n resolves them; n8n's per-item parameter resolution is most
 * of the time a large batch takes, so two cases skip it:
 * - a parameter without any expression is the same for every item: resolved once per execution;
 * - a parameter that is exactly one field of the item, `{{ $json.prompt }}`, holding text: read from the
 *   item, which is what n8n's expression gives, without compiling the expression again for every item.
 *   Anything else (a missing field, a number, other expressions) is resolved by n8n, with its results and errors.
 */
export class ItemParameters {
	readonly #constants = new Map<string, unknown>();
	readonly #fields = new Map<string, string[] | undefined>();

	constructor(private readonly context: IExecuteFunctions) {}

	get(
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown {
		if (this.#constants.has(name)) return this.#constants.get(name);
		const path = this.#fieldPath(name, fallback);
		const text = path && textAt(this.context.getInputData()[itemIndex]?.json, path);
		if (text !== undefined) return text;
		const value = this.context.getNodeParameter(name, itemIndex, fallback, options);
		if (isConstant(this.context.getNode().parameters[name])) this.#constants.set(name, value);
		return value;
	}

	/** The field a parameter reads, found once per execution; n8n resolves a missing parameter's fallback too. */
	#fieldPath(name: string, fallback: unknown): string[] | undefined {
		if (!this.#fields.has(name)) {
			this.#fields.set(name, fieldReference(this.context.getNode().parameters[name] ?? fallback));
		}
		return this.#fields.get(name);
	}
}
