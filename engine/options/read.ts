import type {
	BooleanOptionName,
	ChoiceOption,
	ChoiceOptionName,
	NumberOption,
	NumberOptionName,
	OptionName,
	OptionSpec,
	TextOption,
	TextOptionName,
} from './table';
import { isResponseFormatOption, optionLabel, optionPath, OPTIONS } from './table';
import { InputError } from '../failures/errors';
import { describe, named } from '../values';

/** Accepts a number, or text that is a number (expressions often give text). */
function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Number(value);
		return Number.isFinite(parsed) ? parsed : undefined;
	}
	return undefined;
}

function numberInRange(
	value: unknown,
	field: string,
	min: number,
	max: number,
	fix: string,
): number {
	const parsed = toNumber(value);
	if (parsed === undefined) {
		throw new InputError(
			field,
			`must be a number from ${min} to ${max}, got ${describe(value)}`,
			fix,
		);
	}
	if (parsed < min || parsed > max) {
		throw new InputError(field, `must be from ${min} to ${max}, got ${parsed}`, fix);
	}
	return parsed;
}

function wholeNumber(
	value: unknown,
	field: string,
	min: number,
	fix: string,
	max?: number,
): number {
	const parsed = toNumber(value);
	const whole = parsed !== undefined && Number.isInteger(parsed);
	if (max !== undefined && (!whole || parsed < min || parsed > max)) {
		throw new InputError(
			field,
			`must be a whole number from ${min} to ${max}, got ${describe(value)}`,
			fix,
		);
	}
	if (!whole || parsed < min) {
		throw new InputError(
			field,
			`must be a whole number of at least ${min}, got ${describe(value)}`,
			fix,
		);
	}
	return parsed;
}

const NUMBER_OPTIONS = OPTIONS.filter(
	(spec): spec is (typeof OPTIONS)[number] & NumberOption => spec.kind === 'number',
);

function spec(name: NumberOptionName): NumberOption {
	return NUMBER_OPTIONS.find((option) => option.name === name) as NumberOption;
}

/** Checks one value against its option's range; the message names the option and says the fix. */
function check(option: NumberOption, value: unknown): number {
	const { label, min, max, fix } = option;
	return option.whole
		? wholeNumber(value, label, min, fix, max)
		: numberInRange(value, label, min, max ?? Number.MAX_VALUE, fix);
}

/** A number option's checked value, or undefined when it is not set. */
export function optionValue(
	options: Record<string, unknown>,
	name: NumberOptionName,
): number | undefined {
	const value = options[name];
	return value === undefined ? undefined : check(spec(name), value);
}

/** A setting of the node: the checked value, or the table's default when it is not set. */
export function optionSetting(options: Record<string, unknown>, name: NumberOptionName): number {
	return optionValue(options, name) ?? spec(name).default;
}

/**
 * The request body fields of the options that are set (temperature, top_p, max_tokens, reasoning_effort, ...),
 * of the chat table or of `specs` (an image or audio operation's).
 */
export function wireFields(
	options: Record<string, unknown>,
	specs: readonly OptionSpec[] = OPTIONS,
): Record<string, number | string> {
	const fields: Record<string, number | string> = {};
	for (const option of specs) {
		if (!('wire' in option) || option.wire === undefined || options[option.name] === undefined) {
			continue;
		}
		fields[option.wire] = checkedValue(option, options[option.name]);
	}
	return fields;
}

/** A value of a number, choice or text option, checked; anything else names the option and the fix. */
export function checkedValue(
	option: NumberOption | ChoiceOption | TextOption,
	value: unknown,
): number | string {
	if (option.kind === 'number') return check(option, value);
	if (option.kind === 'choice') return checkChoice(option, value);
	return checkText(option, value);
}

/** A choice option's value (the table's default when unset); anything else names the choices. */
export function optionChoice(options: Record<string, unknown>, name: ChoiceOptionName): string {
	const option = OPTIONS.find((spec) => spec.name === name) as ChoiceOption;
	return checkChoice(option, options[name] ?? option.default);
}

function checkChoice(option: ChoiceOption, value: unknown): string {
	if (option.choices.some((choice) => choice.value === value)) return value as string;
	throw new InputError(
		option.label,
		`has the unknown value ${named(value)}`,
		`Choose ${option.choices.map((choice) => choice.name).join(', ')}; an expression gives the value: ${option.choices.map((choice) => choice.value).join(', ')}.`,
	);
}

/** A text option's value (the table's default when unset); anything but text names the option. */
export function optionText(options: Record<string, unknown>, name: TextOptionName): string {
	const option = OPTIONS.find((spec) => spec.name === name) as TextOption;
	return checkText(option, options[name] ?? option.default);
}

function checkText(option: TextOption, value: unknown): string {
	if (typeof value === 'string') return value;
	throw new InputError(
		option.label,
		`must be text, got ${describe(value)}`,
		`Type the value in Options > ${option.label}, or map a field that holds text.`,
	);
}

/** A switch option's value: true or false (also as text, which expressions give), undefined when not added. */
export function optionFlag(
	options: Record<string, unknown>,
	name: BooleanOptionName,
): boolean | undefined {
	const value = options[name];
	if (value === undefined || typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	const { label } = OPTIONS.find((spec) => spec.name === name)!;
	throw new InputError(
		label,
		`must be true or false, got ${describe(value)}`,
		`Switch Options > ${label} on or off, or map a field that holds true or false.`,
	);
}

/** Marks options read from a node version that keeps Response Format and its options in Options. */
const IN_OPTIONS = Symbol('Response Format in Options');

/** Whether the options came from a node version that keeps Response Format and its options in Options. */
export function responseFormatInOptions(options: Record<string | symbol, unknown>): boolean {
	return options[IN_OPTIONS] === true;
}

/**
 * How a message names Response Format or one of its options for the node version the options came from:
 * `Options > JSON Schema` where they are in Options (added with Add Option), `JSON Schema` where they are
 * fields of their own; any other option as `optionPath` does.
 */
export function placedOptionPath(
	options: Record<string | symbol, unknown>,
	name: OptionName,
): string {
	return responseFormatInOptions(options) ? `Options > ${optionLabel(name)}` : optionPath(name);
}

/**
 * The options a request is built from: the Options collection, and from node version `fieldsFrom` on the
 * fields Response Format and its options became (`responseFormatFields`); `field` reads one of those, with
 * the table's default as its fallback.
 */
export function withResponseFormatFields(
	options: Record<string, unknown>,
	version: number,
	fieldsFrom: number,
	field: (name: OptionName, fallback: unknown) => unknown,
): Record<string, unknown> {
	if (version < fieldsFrom) return { ...options, [IN_OPTIONS]: true };
	const placed = { ...options };
	for (const spec of OPTIONS) {
		if (isResponseFormatOption(spec.name)) placed[spec.name] = field(spec.name, spec.default);
	}
	return placed;
}
