import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { configurationError } from './errors';
import type { supplyChatModel } from './supply';

/** The first n8n version that ships the AI node SDK (`@n8n/ai-node-sdk`), which the Chat Model is built on. */
const CHAT_MODEL_MIN_N8N = '2.16.0';

const SDK = '@n8n/ai-node-sdk';

/** Node's "Cannot find module" for the SDK itself (not for a module the SDK needs). */
function isSdkMissing(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	return code === 'MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${SDK}'`);
}

/** What the user reads when this n8n has no SDK: the version needed, and the node that works here. */
function needsNewerN8n(node: INode, error: unknown): unknown {
	if (!isSdkMissing(error)) return error;
	const fix = `Update n8n to ${CHAT_MODEL_MIN_N8N} or later to use it with the AI Agent and the other AI nodes. On this n8n, the Chat Completion node of the same package works (also as an AI Agent tool).`;
	// The AI nodes keep only the message: it says it all, the description repeats the fix.
	return configurationError(
		new NodeOperationError(
			node,
			`The Chat Completions Chat Model needs n8n ${CHAT_MODEL_MIN_N8N} or later: this n8n does not have the AI node SDK (${SDK}) it is built on. ${fix}`,
			{ description: fix },
		),
	);
}

/**
 * The part of the Chat Model that runs on the SDK, loaded the first time a model is supplied. n8n loads
 * every node of a package at start, and one that cannot load takes the whole package down: on an n8n
 * without the SDK (1.x, 2.x before 2.16) the Chat Completion node must still load and run.
 */
export async function loadSupply(node: INode): Promise<typeof supplyChatModel> {
	try {
		return (await import('./supply.js')).supplyChatModel;
	} catch (error) {
		throw needsNewerN8n(node, error);
	}
}
