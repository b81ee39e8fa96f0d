import type { INodeProperties } from 'n8n-workflow';

import type { ItemContext } from './item';
import { itemText } from './item';

/** Prompt, of the image operations and Generate a Video (each with its own placeholder and description). */
export const promptProperty: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	required: true,
	placeholder: 'e.g. A watercolour fox in the snow',
	description: 'What the image shows, or what to change in it',
};

/** Who sets the wire field `prompt`, for Extra Body's error. */
export const SET_BY_PROMPT = `the ${promptProperty.displayName} field sets`;

/** The item's Prompt, non-empty text; else its error with `fix`. */
export const itemPrompt = (item: Pick<ItemContext, 'context' | 'itemIndex'>, fix: string) =>
	itemText(item, promptProperty.name, promptProperty.displayName, fix);
