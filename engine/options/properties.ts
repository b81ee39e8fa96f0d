import type { INodeProperties } from 'n8n-workflow';

import type { OptionName, OptionSpec } from './table';
import { isResponseFormatOption, OPTIONS } from './table';

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

function property(spec: OptionSpec, versions: Show = {}): INodeProperties {
	const common: Pick<
		INodeProperties,
		'displayName' | 'name' | 'description' | 'displayOptions' | 'hint'
	> = {
		displayName: spec.label,
		name: spec.name,
		description: spec.description,
		...(spec.hint === undefined ? {} : { hint: spec.hint }),
	};
	const show: Show = { ...versions };
	if (spec.showWhen) show[spec.showWhen.option] = [...spec.showWhen.values];
	if (Object.keys(show).length > 0) common.displayOptions = { show };
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

/**
 * The Options collection of a node: a node's `own` options (an image or audio operation's), then the table's
 * options of the given names. With `fieldsFrom`, the
 * node version from which Response Format and its options are fields of their own (`responseFormatFields`):
 * Options holds them only in earlier versions, so saved workflows keep theirs.
 */
export function optionsCollection(
	names: readonly OptionName[],
	fieldsFrom?: number,
	own: readonly OptionSpec[] = [],
	descriptions: Partial<Record<OptionName, string>> = {},
): INodeProperties {
	const before: Show =
		fieldsFrom === undefined ? {} : { '@version': [{ _cnd: { lt: fieldsFrom } }] };
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			...own.map((spec) => property(spec)),
			...OPTIONS.filter((spec) => names.includes(spec.name)).map((spec) =>
				property(
					{ ...spec, description: descriptions[spec.name] ?? spec.description },
					isResponseFormatOption(spec.name) ? before : {},
				),
			),
		],
	};
}

/**
 * Response Format, JSON Schema, Strict Schema and Repair Attempts as fields of the node from version `from`
 * on: choosing JSON Schema shows its editor right below.
 */
export function responseFormatFields(from: number): INodeProperties[] {
	return OPTIONS.filter((spec) => isResponseFormatOption(spec.name)).map((spec) =>
		property(spec, { '@version': [{ _cnd: { gte: from } }] }),
	);
}
