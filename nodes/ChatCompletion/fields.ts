import { modelProperty } from '../../engine';

/**
 * The Chat Completion node's fields outside Options (those are in the engine's option table), each
 * declared once (Model, shared with the Chat Model, is the engine's): its name (saved in workflows: never renamed) and the label users see. The UI properties
 * take their `displayName` from here, and every message that names a field reads its label here.
 *
 * `emptyFix`: the field needs a value, so an expression that gives nothing is an error with this fix.
 * `row`: a fixed collection's rows, as messages name them (`Messages row 2 > Content`), and their fields.
 */
interface Field {
	label: string;
	emptyFix?: string;
	row?: { place: string; fields: Record<string, string> };
}

export const FIELDS = {
	model: {
		label: modelProperty.displayName,
		emptyFix: 'Map a field that holds the model ID, or choose the model from the list.',
	},
	promptType: { label: 'Prompt' },
	systemMessage: { label: 'System Message' },
	prompt: {
		label: 'User Prompt',
		emptyFix:
			'Map a field the input item has (the Input panel shows them), e.g. {{ $json.question }}.',
	},
	messages: {
		label: 'Messages',
		row: {
			place: 'Messages row',
			fields: {
				role: 'Role',
				content: 'Content',
				reasoning: 'Reasoning',
				reasoningField: 'Reasoning Field',
			},
		},
	},
	messagesJson: {
		label: 'Messages (JSON)',
		emptyFix:
			'Connect a node whose items hold the conversation, e.g. a Chat Completion node ({{ $json.messages }} reads its "messages" field), or build the array in the expression.',
	},
	withImages: { label: 'Images' },
	imageUrls: { label: 'Image URLs' },
	imageBinaryProperties: { label: 'Image Binary Properties' },
	imageDetail: { label: 'Image Detail' },
	withFiles: { label: 'Files' },
	fileBinaryProperties: { label: 'File Binary Properties' },
	toolsMode: { label: 'Tools' },
	tools: {
		label: 'Functions',
		row: {
			place: 'Tools row',
			fields: { name: 'Name', description: 'Description', parameters: 'Parameters' },
		},
	},
	toolsJson: {
		label: 'Tools (JSON)',
		emptyFix: 'Map a field that holds the tools array, or type the array.',
	},
	toolChoice: { label: 'Tool Choice' },
	toolChoiceFunction: {
		label: 'Function Name or ID',
		emptyFix: 'Choose one of the tools, or map a field that holds its name.',
	},
	toolCallId: { label: 'Tool Call ID' },
	toolResult: { label: 'Tool Result' },
	simplify: { label: 'Simplify Output' },
} as const satisfies Record<string, Field>;

export type FieldName = keyof typeof FIELDS;

/** A field's label, or the parameter's own name for one the table does not hold (Options, n8n's settings). */
export function fieldLabel(name: string): string {
	return name in FIELDS ? FIELDS[name as FieldName].label : name;
}
