import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

/** Whether a saved parameter value holds no expression anywhere (expressions are strings starting with "="). */
function isConstant(raw: unknown): boolean {
	if (typeof raw === 'string') return !raw.startsWith('=');
	if (Array.isArray(raw)) return raw.every(isConstant);
	if (typeof raw === 'object' && raw !== null) return Object.values(raw).every(isConstant);
	return true;
}

/**
 * The node's parameters for one item, as n8n resolves them. A parameter without any expression is the
 * same for every item, so it is resolved once per execution, not once per item: n8n's per-item
 * parameter resolution is most of the time a large batch takes.
 */
export class ItemParameters {
	readonly #constants = new Map<string, unknown>();

	constructor(private readonly context: IExecuteFunctions) {}

	get(
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown {
		if (this.#constants.has(name)) return this.#constants.get(name);
		const value = this.context.getNodeParameter(name, itemIndex, fallback, options);
		if (isConstant(this.context.getNode().parameters[name])) this.#constants.set(name, value);
		return value;
	}
}
