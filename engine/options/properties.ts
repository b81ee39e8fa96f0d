import type { INodeProperties } from 'n8n-workflow';

import type { OptionName, OptionSpec } from './table';
import { OPTIONS } from './table';

function property(spec: OptionSpec): INodeProperties {
	const common: Pick<
		INodeProperties,
		'displayName' | 'name' | 'description' | 'displayOptions' | 'hint'
	> = {
		displayName: spec.label,
		name: spec.name,
		description: spec.description,
		...(spec.hint === undefined ? {} : { hint: spec.hint }),
	};
	if (spec.showWhen) {
		common.displayOptions = { show: { [spec.showWhen.option]: [...spec.showWhen.values] } };
	}
	if (spec.kind === 'boolean') return { ...common, type: 'boolean', default: spec.default };
	if (spec.kind === 'json') return { ...common, type: 'json', default: spec.default };
	if (spec.kind === 'text') {
		return {
			...common,
			type: 'string',
			default: spec.default,
			...(spec.placeholder === undefined ? {} : { placeholder: spec.placeholder }),
			...(spec.rows === undefined ? {} : { typeOptions: { rows: spec.rows } }),
		};
	}
	if (spec.kind === 'choice') {
		return {
			...common,
			type: 'options',
			default: spec.default,
			options: spec.choices.map((choice) => ({ ...choice })),
		};
	}
	return {
		...common,
		type: 'number',
		default: spec.default,
		typeOptions: {
			minValue: spec.min,
			...(spec.max === undefined ? {} : { maxValue: spec.max }),
			numberPrecision: spec.whole ? 0 : spec.precision,
		},
	};
}

/** The Options collection of a node, with the table's options of the given names. */
export function optionsCollection(names: readonly OptionName[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: OPTIONS.filter((spec) => names.includes(spec.name)).map(property),
	};
}
