import { BaseError, ExecutionBaseError, ExpressionError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemParameters } from './parameters';
import type { FieldName } from '../fields';
import { FIELDS, fieldLabel } from '../fields';
import { optionsProperty, RESPONSE_FORMAT_FIELDS_FROM } from '../properties/options';
import type { OptionName } from '../../../engine';
import {
	checkAddedOptions,
	errors,
	isExpression,
	media,
	optionPath,
	OPTIONS,
	values,
	withResponseFormatFields,
} from '../../../engine';
import type { ChatInput, FileFields, ImageFields } from '../request/input';
import { placeholderNames } from '../request/placeholders';

/**
 * Loads the binary properties that the image and file fields and the placeholders of Messages JSON name; the
 * request builder reports missing ones.
 */
async function loadBinaries(
	context: IExecuteFunctions,
	itemIndex: number,
	names: string[],
): Promise<media.ItemBinaries> {
	const binary = context.getInputData()[itemIndex]?.binary ?? {};
	const binaries: media.ItemBinaries = { available: Object.keys(binary), loaded: {} };
	for (const name of new Set(names)) {
		const data = binary[name];
		if (data === undefined) continue;
		const bytes = await context.helpers.getBinaryDataBuffer(itemIndex, name);
		binaries.loaded[name] = { mimeType: data.mimeType, fileName: data.fileName, bytes };
	}
	return binaries;
}

/** The binary property names that the image and file fields of Simple mode or of the rows list. */
function binaryNames(fields: Array<ImageFields & FileFields>): string[] {
	return fields.flatMap((entry) => [
		...values.splitList(entry.imageBinaryProperties, FIELDS.imageBinaryProperties.label),
		...values.splitList(entry.fileBinaryProperties, FIELDS.fileBinaryProperties.label),
	]);
}

const isOption = (name: string): name is OptionName => OPTIONS.some((spec) => spec.name === name);

/**
 * The label of a parameter n8n raised an error for: the field table's, an option's (also one that is a field
 * of its own, like Response Format), or the Options collection's.
 */
function labelOf(parameter: string): string {
	const [collection, option] = parameter.split('.');
	if (isOption(collection)) return optionPath(collection);
	if (collection !== optionsProperty.name) return fieldLabel(parameter);
	return option === undefined ? optionsProperty.displayName : optionPath(option as OptionName);
}

/**
 * An error n8n raised while resolving a parameter, passed on with its words, the parameter and the item.
 * n8n's legacy expression engine reports a syntax error as a plain UserError: it becomes the
 * ExpressionError its production engine gives, so both read alike.
 */
function raisedByN8n(error: unknown, parameter: string, itemIndex: number): unknown {
	const label = labelOf(parameter);
	if (error instanceof ExecutionBaseError) {
		error.context.parameter ??= parameter;
		error.context.itemIndex ??= itemIndex;
		error.description ??= `Check the expression in ${label}: ${error.message}.`;
		return error;
	}
	if (error instanceof BaseError) {
		return new ExpressionError(error.message, {
			description: error.description ?? `Check the expression in ${label}: ${error.message}.`,
			parameter,
			itemIndex,
		});
	}
	return error;
}

/** Reads the parameters of one item; an expression that gives nothing is an error where a value is needed. */
class ItemReader {
	private readonly raw: IDataObject;
	private readonly itemJson: unknown;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly parameters: ItemParameters,
		private readonly itemIndex: number,
	) {
		this.raw = parameters.node.parameters;
		this.itemJson = context.getInputData()[itemIndex]?.json;
	}

	/** A parameter as n8n resolves it for the item; n8n's own errors pass on with the parameter and item. */
	get(name: string, fallback?: unknown, extractValue = false): unknown {
		let value: unknown;
		try {
			value = this.parameters.get(
				name,
				this.itemIndex,
				fallback,
				extractValue ? { extractValue } : undefined,
			);
		} catch (error) {
			throw raisedByN8n(error, this.failingParameter(name), this.itemIndex);
		}
		const field: { label: string; emptyFix?: string } | undefined = FIELDS[name as FieldName];
		const raw = values.isPlainObject(this.raw[name]) ? this.raw[name].value : this.raw[name];
		if (field?.emptyFix !== undefined && value === undefined && isExpression(raw)) {
			throw new errors.InputError(field.label, this.why(raw), field.emptyFix);
		}
		return value;
	}

	/**
	 * The options a request is built from: the Options collection and the fields of Response Format (from
	 * version 1.2). An option that was added, or such a field, whose expression gives nothing is an error.
	 */
	options(): Record<string, unknown> {
		return withResponseFormatFields(
			this.collection(),
			this.parameters.node.typeVersion,
			RESPONSE_FORMAT_FIELDS_FROM,
			(name, fallback) => {
				const value = this.get(name, fallback);
				const raw = this.raw[name];
				if (value !== undefined || !isExpression(raw)) return value;
				const label = optionPath(name);
				throw new errors.InputError(
					label,
					this.why(raw),
					`Map a field that holds the value, or set ${label} without an expression.`,
				);
			},
		);
	}

	/** The Options collection: an option that was added but whose expression gives nothing is an error. */
	private collection(): Record<string, unknown> {
		const options = (this.get('options', {}) ?? {}) as Record<string, unknown>;
		checkAddedOptions(options, (this.raw.options ?? {}) as IDataObject, this.itemJson);
		return options;
	}

	/** Rows of a fixed collection (Messages, Tools); `required` fields whose expression gives nothing are errors. */
	rows(name: 'messages' | 'tools', required: string[]): IDataObject {
		const { place, fields } = FIELDS[name].row;
		const value = (this.get(name, {}) ?? {}) as IDataObject;
		const rows = Array.isArray(value.values) ? (value.values as IDataObject[]) : [];
		const rawRows = ((this.raw[name] as IDataObject | undefined)?.values ?? []) as IDataObject[];
		rows.forEach((row, index) => {
			for (const field of required) {
				const raw = rawRows[index]?.[field];
				if (row[field] !== undefined || !isExpression(raw)) continue;
				throw new errors.InputError(
					`${place} ${index + 1} > ${(fields as Record<string, string>)[field]}`,
					this.why(raw),
					'Map a field the input item has (the Input panel shows them), or type the value.',
				);
			}
		});
		return value;
	}

	/**
	 * The parameter whose expression failed: for the Options collection, the option (`options.extraBody`),
	 * found by resolving the options with expressions one by one, so that the error names it.
	 */
	private failingParameter(name: string): string {
		if (name !== optionsProperty.name) return name;
		const raw = (this.raw.options ?? {}) as IDataObject;
		const failing = OPTIONS.find(({ name: option }) => {
			if (!isExpression(raw[option])) return false;
			try {
				this.context.getNodeParameter(`${name}.${option}`, this.itemIndex);
				return false;
			} catch {
				return true;
			}
		});
		return failing === undefined ? name : `${name}.${failing.name}`;
	}

	private why(expression: string): string {
		return values.emptyExpression(expression, this.itemJson);
	}
}

/** The UI parameters of one item, as they are after n8n resolved the item's expressions. */
export async function readInput(
	context: IExecuteFunctions,
	parameters: ItemParameters,
	itemIndex: number,
): Promise<ChatInput> {
	const reader = new ItemReader(context, parameters, itemIndex);
	const parameter = (name: string, fallback?: unknown) => reader.get(name, fallback);
	const promptType = parameter('promptType') as string;
	const toolsMode = parameter('toolsMode', 'none') as string;
	const input: ChatInput = {
		model: reader.get('model', '', true),
		promptType,
		toolsMode,
		options: reader.options(),
	};
	let binarySources: Array<ImageFields & FileFields> = [];
	if (promptType === 'simple') {
		input.systemMessage = parameter('systemMessage', '');
		input.prompt = parameter('prompt', '');
		input.imageUrls = parameter('imageUrls', '');
		input.imageBinaryProperties = parameter('imageBinaryProperties', '');
		input.imageDetail = parameter('imageDetail', 'auto');
		input.fileBinaryProperties = parameter('fileBinaryProperties', '');
		binarySources = [input];
	} else if (promptType === 'messages') {
		input.messages = reader.rows('messages', ['content']);
		binarySources = ((input.messages as IDataObject).values as IDataObject[] | undefined) ?? [];
	} else if (promptType === 'json') {
		input.messagesJson = parameter('messagesJson');
		// Hidden while Tools is None: n8n then drops them, and their defaults apply.
		input.toolCallId = parameter('toolCallId', '={{ $json.id }}');
		input.toolResult = parameter('toolResult', '={{ $json.result }}');
	}
	if (toolsMode !== 'none') {
		input.tools = toolsMode === 'define' ? reader.rows('tools', ['name', 'parameters']) : undefined;
		input.toolsJson = toolsMode === 'json' ? parameter('toolsJson', '[]') : undefined;
		input.toolChoice = parameter('toolChoice', 'auto');
		input.toolChoiceFunction =
			input.toolChoice === 'function' ? parameter('toolChoiceFunction', '') : undefined;
	}
	input.binaries = await loadBinaries(context, itemIndex, [
		...binaryNames(binarySources),
		...placeholderNames(input.messagesJson),
	]);
	return input;
}
