/**
 * The chat request both nodes of the batch and queue benchmarks send for every item `{ prompt }`, as each
 * node's parameters (scripts/bench/contenders.mts explains the choice), and how each node's output item
 * carries the reply. Imports nothing of n8n's engine, so that a benchmark of real n8n can use it too.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

const MODEL = 'echo-1';
export const CHAT_NODE = 'n8n-nodes-chat-completions.chatCompletion';
export const HTTP_REQUEST_NODE = 'n8n-nodes-base.httpRequest';
/** The credential type of the HTTP Request node's key: Header Auth. */
export const HEADER_AUTH = 'httpHeaderAuth';

/** The reply text of an item that keeps it in `content`, as the Chat Completion node and the clients here do. */
export const contentOf = (item: INodeExecutionData): string | undefined =>
	typeof item.json.content === 'string' ? item.json.content : undefined;

/** The JSON body expression of the HTTP Request node: what the Chat Completion node sends, built per item. */
function bodyExpression(extraBody: IDataObject = {}): string {
	const extra = Object.entries(extraBody).map(
		([name, value]) => `, ${JSON.stringify(name)}: ${JSON.stringify(value)}`,
	);
	return `={{ { "model": "${MODEL}", "messages": [{ "role": "user", "content": $json.prompt }]${extra.join('')} } }}`;
}

/**
 * The Chat Completion node's parameters: model echo-1, User Prompt `{{ $json.prompt }}`, no option but Extra
 * Body and, where a run asks for them, Concurrency and Stream.
 */
export function chatParameters(
	extraBody?: IDataObject,
	concurrency?: number,
	stream = false,
): INodeParameters {
	return {
		model: { __rl: true, mode: 'id', value: MODEL },
		promptType: 'simple',
		prompt: '={{ $json.prompt }}',
		options: {
			...(extraBody === undefined ? {} : { extraBody: JSON.stringify(extraBody) }),
			...(concurrency === undefined ? {} : { concurrency }),
			...(stream ? { stream } : {}),
		},
	};
}

/** The HTTP Request node's parameters: POST `<baseUrl>/chat/completions`, the JSON body above, Header Auth. */
export function httpRequestParameters(baseUrl: string, extraBody?: IDataObject): INodeParameters {
	return {
		method: 'POST',
		url: `${baseUrl}/chat/completions`,
		authentication: 'genericCredentialType',
		genericAuthType: HEADER_AUTH,
		sendBody: true,
		specifyBody: 'json',
		jsonBody: bodyExpression(extraBody),
		options: {},
	};
}

/** The Header Auth credential's data for `apiKey`: `Authorization: Bearer <key>`. */
export const headerAuth = (apiKey: string) => ({
	name: 'Authorization',
	value: `Bearer ${apiKey}`,
});

/** The reply text of an HTTP Request node's item (the completion as the service sent it); undefined for an error item. */
export function httpRequestReply(item: INodeExecutionData): string | undefined {
	const choices = item.json.choices as Array<{ message?: { content?: unknown } }> | undefined;
	const content = choices?.[0]?.message?.content;
	return typeof content === 'string' ? content : undefined;
}
