import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readInput } from './read-input';
import { describeProblem } from '../errors/describe-problem';
import { errorItemJson, toNodeError } from '../errors/node-error';
import type { ProblemContext } from '../errors/problem';
import { buildChatRequest } from '../request/build';
import { parseCompletion } from '../response/completion';
import { replyItem } from '../output/reply-item';
import type { Connection } from '../shared/connection';
import { connectionFrom } from '../shared/connection';
import { CREDENTIAL_TYPE, send } from '../transport/http';

async function completeItem(
	context: IExecuteFunctions,
	connection: Connection,
	itemIndex: number,
	problemContext: ProblemContext,
): Promise<IDataObject> {
	const request = buildChatRequest(readInput(context, itemIndex));
	problemContext.model = request.body.model;
	const reply = await send(context, {
		method: 'POST',
		url: `${connection.baseUrl}/chat/completions`,
		body: request.body,
		timeout: request.timeout,
	});
	const completion = parseCompletion(reply);
	const simplify = context.getNodeParameter('simplify', itemIndex, true) as boolean;
	return simplify ? replyItem(request.body, completion) : (completion as IDataObject);
}

/** Runs every input item; a failing item becomes an error item or stops the node, per the node's On Error setting. */
export async function executeChatCompletion(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	let connection: Connection;
	try {
		connection = connectionFrom(await this.getCredentials(CREDENTIAL_TYPE));
	} catch (error) {
		throw toNodeError(this.getNode(), describeProblem(error, {}));
	}
	const routeErrors = this.getNode().onError === 'continueErrorOutput';
	const replies: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const problemContext: ProblemContext = { ...connection };
		try {
			const json = await completeItem(this, connection, itemIndex, problemContext);
			replies.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			const problem = describeProblem(error, problemContext);
			const nodeError = toNodeError(this.getNode(), problem, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			replies.push({
				json: errorItemJson(problem, itemIndex),
				// With the error output on, n8n routes items that carry `error` there (keeping only its
				// message in json); the error itself keeps the HTTP code and the fix.
				...(routeErrors ? { error: nodeError } : {}),
				pairedItem: { item: itemIndex },
			});
		}
	}
	return [replies];
}
