import type { MediaOperation, OwnField } from './operations';
import { OPERATIONS } from './operations';
import type { MediaRequest } from './request';
import { checkedValue, wireFields } from '../options/read';
import type { OptionSpec } from '../options/table';
import { endpointRequest } from '../request/endpoint';

/** Each operation's options as messages name them: `Options > Number of Images`. */
const CHECKED = Object.fromEntries(
	Object.entries(OPERATIONS).map(([operation, row]) => [
		operation,
		row.options.map((spec: OptionSpec) => ({ ...spec, label: `Options > ${spec.label}` })),
	]),
) as Record<MediaOperation, OptionSpec[]>;

/**
 * Checks the Model and one item's Options before anything is sent: the operation's own (its row's), each sent
 * under its wire name when set, and the package's Timeout, retries and Extra Body, which may not set what the
 * node sets: `setBy` says who sets each of the operation's own fields (`the Prompt field sets`).
 */
export function mediaRequest<N extends MediaOperation>(
	operation: N,
	model: unknown,
	options: Record<string, unknown>,
	setBy: Record<OwnField<N>, string>,
): MediaRequest {
	const specs = CHECKED[operation];
	const own = new Set(specs.map((spec) => spec.name));
	const shared = Object.fromEntries(Object.entries(options).filter(([name]) => !own.has(name)));
	const reserved: Record<string, string> = { model: 'the Model field sets', ...setBy };
	for (const spec of specs) {
		if ('wire' in spec && spec.wire !== undefined) reserved[spec.wire] = `${spec.label} sets`;
	}
	const request = endpointRequest(model, shared, reserved);
	const setting = (name: string) => {
		const spec = specs.find((option) => option.name === name);
		if (spec === undefined || spec.kind === 'boolean' || spec.kind === 'json') return undefined;
		return options[name] === undefined ? undefined : String(checkedValue(spec, options[name]));
	};
	return {
		...request,
		fields: { ...request.fields, ...wireFields(options, specs) },
		output: setting('binaryPropertyOutput') ?? 'data',
		mask: setting('mask'),
	};
}
