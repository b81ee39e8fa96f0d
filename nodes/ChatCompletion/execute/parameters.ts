import type { IDataObject, IExecuteFunctions, IGetNodeParameterOptions, INode } from 'n8n-workflow';

import { fieldReference, textAt } from './field-reference';
import { values } from '../../../engine';

/** A saved value built for one item from its JSON; undefined when a field it reads holds no text. */
type Fill = (json: IDataObject | undefined) => { value: unknown } | undefined;

/**
 * How a saved parameter value is read: `constant` without any expression; `fields` when every expression in
 * it is one field of the item (`fill` builds it, as n8n would: arrays and objects new, other values as saved);
 * `n8n` for anything else.
 */
type Plan = { kind: 'constant' } | { kind: 'fields'; fill: Fill } | { kind: 'n8n' };

const CONSTANT: Plan = { kind: 'constant' };
const BY_N8N: Plan = { kind: 'n8n' };

function planFor(raw: unknown): Plan {
	if (typeof raw === 'string') {
		if (!raw.startsWith('=')) return CONSTANT;
		const path = fieldReference(raw);
		if (path === undefined) return BY_N8N;
		return {
			kind: 'fields',
			fill: (json) => {
				const text = textAt(json, path);
				return text === undefined ? undefined : { value: text };
			},
		};
	}
	if (!Array.isArray(raw) && !values.isPlainObject(raw)) return CONSTANT;
	const entries = Object.entries(raw).map(([key, value]) => [key, planFor(value)] as const);
	if (entries.some(([, plan]) => plan.kind === 'n8n')) return BY_N8N;
	if (entries.every(([, plan]) => plan.kind === 'constant')) return CONSTANT;
	return {
		kind: 'fields',
		fill: (json) => {
			const built: Record<string, unknown> = {};
			for (const [key, plan] of entries) {
				const part =
					plan.kind === 'fields' ? plan.fill(json) : { value: (raw as IDataObject)[key] };
				if (part === undefined) return undefined;
				built[key] = part.value;
			}
			return { value: Array.isArray(raw) ? raw.map((_, index) => built[index]) : built };
		},
	};
}

/**
 * The node's parameters for one item, as n8n resolves them; n8n's per-item parameter resolution is most
 * of the time a large batch takes, so two cases skip it:
 * - a parameter without any expression is the same for every item: resolved once per execution;
 * - a parameter whose expressions are each exactly one field of the item, `{{ $json.prompt }}` (also inside
 *   Messages rows), holding text: built from the item, which is what n8n's expressions give, without
 *   compiling them again for every item. Anything else (a missing field, a number, other expressions, a
 *   parameter read with options) is resolved by n8n, with its results and errors.
 */
export class ItemParameters {
	readonly #constants = new Map<string, unknown>();
	readonly #plans = new Map<string, Plan>();
	/** The node as saved, read once per execution: n8n's `getNode` copies the whole node at every call. */
	readonly node: INode;

	constructor(private readonly context: IExecuteFunctions) {
		this.node = context.getNode();
	}

	get(
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown {
		if (this.#constants.has(name)) return this.#constants.get(name);
		const plan = this.#plan(name, fallback);
		if (plan.kind === 'fields' && options === undefined) {
			const built = plan.fill(this.context.getInputData()[itemIndex]?.json);
			if (built !== undefined) return built.value;
		}
		const value = this.context.getNodeParameter(name, itemIndex, fallback, options);
		if (plan.kind === 'constant') this.#constants.set(name, value);
		return value;
	}

	/** How a parameter is read, found once per execution; n8n resolves a missing parameter's fallback too. */
	#plan(name: string, fallback: unknown): Plan {
		let plan = this.#plans.get(name);
		if (plan === undefined) {
			plan = planFor(this.node.parameters[name] ?? fallback);
			this.#plans.set(name, plan);
		}
		return plan;
	}
}
