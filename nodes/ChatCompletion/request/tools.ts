import type { ChatInput } from './input';
import { FIELDS } from '../fields';
import type { protocol, RequestParts } from '../../../engine';
import { checkName, checkParameters, checkTools, errors, values } from '../../../engine';

function fromRows(rows: unknown): protocol.ToolDefinition[] {
	const entries = values.isPlainObject(rows) && Array.isArray(rows.values) ? rows.values : [];
	return entries.map((row: unknown, index) => {
		const place = `${FIELDS.tools.row.place} ${index + 1}`;
		const fields = values.isPlainObject(row) ? row : {};
		const name = checkName(fields.name, `${place} > ${FIELDS.tools.row.fields.name}`);
		const definition: protocol.ToolDefinition = {
			type: 'function',
			function: {
				name,
				parameters: checkParameters(
					fields.parameters,
					`${place} > ${FIELDS.tools.row.fields.parameters}`,
				),
			},
		};
		if (typeof fields.description === 'string' && fields.description.trim() !== '') {
			definition.function.description = fields.description;
		}
		return definition;
	});
}

function toolChoice(input: ChatInput, names: string[]): protocol.ChatRequestBody['tool_choice'] {
	const choice = input.toolChoice ?? 'auto';
	if (choice === 'auto') return undefined;
	if (choice === 'none' || choice === 'required') return choice;
	if (choice === 'function') {
		const name =
			typeof input.toolChoiceFunction === 'string' ? input.toolChoiceFunction.trim() : '';
		if (!names.includes(name)) {
			throw new errors.InputError(
				FIELDS.toolChoiceFunction.label,
				`"${name}" is not one of the defined tools (${names.join(', ')})`,
				'Choose one of the tools defined above.',
			);
		}
		return { type: 'function', function: { name } };
	}
	throw new errors.InputError(
		FIELDS.toolChoice.label,
		`has the unknown value ${values.named(choice)}`,
		'Choose Auto, None, Required or Function.',
	);
}

/** The tools and tool choice of one item; nothing when tools are off. Tool Choice Auto is not sent. */
export function buildTools(input: ChatInput): Pick<RequestParts, 'tools' | 'toolChoice'> {
	const mode = input.toolsMode ?? 'none';
	if (mode === 'none') return {};
	if (mode !== 'define' && mode !== 'json') {
		throw new errors.InputError(
			FIELDS.toolsMode.label,
			`has the unknown mode ${values.named(mode)}`,
			'Choose None, Define Below or JSON.',
		);
	}
	const tools =
		mode === 'define' ? fromRows(input.tools) : checkTools(input.toolsJson, FIELDS.toolsJson.label);
	if (tools.length === 0) {
		throw new errors.InputError(
			FIELDS.toolsMode.label,
			'defines no tool',
			'Add a tool, or set Tools to None.',
		);
	}
	const names = tools.map((tool) => tool.function.name);
	const duplicate = names.find((name, index) => names.indexOf(name) !== index);
	if (duplicate !== undefined) {
		throw new errors.InputError(
			FIELDS.toolsMode.label,
			`defines "${duplicate}" twice`,
			'Give every tool its own name.',
		);
	}
	return { tools, toolChoice: toolChoice(input, names) };
}
