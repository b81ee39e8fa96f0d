import type { INode, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { emptyExpression } from '../values';

/** What a sub-node's context tells of the vector store it serves: the store itself, and the store's input items. */
export type StoreContext = Pick<ISupplyDataFunctions, 'getInputData' | 'evaluateExpression'>;

/** The vector store's field that holds the query of a search (Get Many's Prompt, in n8n's vector stores). */
const PROMPT = 'prompt';

/** Whether an expression gives nothing for the item at `index` (one that cannot be resolved gave the store no query either). */
function givesNothing(context: StoreContext, expression: string, index: number): boolean {
	try {
		const value = context.evaluateExpression(expression, index);
		return value === undefined || value === null;
	} catch {
		return false;
	}
}

/**
 * Why the vector store passed no query, in the chat nodes' words for an expression that gives nothing: the
 * expression of the store's Prompt and the first input item it finds nothing in (`emptyExpression`). n8n-core
 * gives a sub-node's context the root node that asked for it as `parentNode` (not in n8n-workflow's types; its
 * `getChildNodes` follows main connections only, so it finds no root from a sub-node), and the root's input
 * items as its main input. Without them (another root, another n8n), the likely cause.
 */
export function missingQuery(context: StoreContext): string {
	const store = (context as { parentNode?: INode }).parentNode;
	const prompt = store?.parameters[PROMPT];
	if (typeof prompt === 'string' && prompt.startsWith('=')) {
		const expression = prompt.slice(1);
		const items = context.getInputData(0, NodeConnectionTypes.Main);
		const at = items.findIndex((_item, index) => givesNothing(context, expression, index));
		if (at !== -1) return emptyExpression(prompt, items[at].json);
	}
	return 'is missing: the vector store passed none, as it does when the expression of its Prompt names a field the input item lacks';
}
