/**
 * The three clients the node benchmark compares, each sending the same chat request to the local
 * service, one call after the other, and keeping each reply's text as its result:
 * - `fetch`: Node's fetch and JSON.parse, the least any client must do;
 * - `helper`: a node that does nothing but send the request through n8n's request helper
 *   (httpRequestWithAuthentication, as n8n's conventions ask), in n8n's engine: the floor for any
 *   node that follows them;
 * - `node`: the Chat Completion node in n8n's engine, at Concurrency 1 unless told otherwise, so that it
 *   sends one item after the other like the others whatever the node's default is.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials.ts';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node.ts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Engine, RunNodeResult } from '../../dev/n8n-core/harness.cts';
import { keys } from '../../dev/service-client/local-service.cts';
import { contentOf } from './chat-request.mts';

/** The credential's type name, as n8n knows it (the class's `name`). */
export const CREDENTIAL_TYPE = new ChatCompletionsApi().name;

export const CLIENT_NAMES = ['fetch', 'helper', 'node'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

export const CLIENT_LABELS: Record<ClientName, string> = {
	fetch: 'bare fetch',
	helper: "n8n's request helper alone",
	node: 'Chat Completion node',
};

const MODEL = 'echo-1';
const PROMPT = 'Hello';
const TIMEOUT_MS = 60_000;
const CHAT_NODE = 'n8n-nodes-chat-completions.chatCompletion';
const HELPER_NODE = 'bench.helperOnly';

export interface Client {
	/**
	 * Sends `count` requests (the clients here one after the other); resolves with the items, throws if one
	 * got no reply. `options` are the node's options; the others read only `extraBody` from them.
	 */
	run(count: number, options?: INodeParameters): Promise<INodeExecutionData[]>;
	/** The reply text of one of its items; undefined for an error item. */
	reply(item: INodeExecutionData): string | undefined;
}

/** The items of an execution in which every item got a reply; else throws, naming the first failure. */
export function answeredItems(
	label: string,
	count: number,
	{ outputs, error }: RunNodeResult,
	reply: (item: INodeExecutionData) => string | undefined,
): INodeExecutionData[] {
	const replies = outputs[0] ?? [];
	const failed = replies.find((item) => reply(item) === undefined);
	if (error || replies.length !== count || failed) {
		throw new Error(
			`${label} did not answer every item: ${error?.message ?? JSON.stringify(failed?.json)}`,
		);
	}
	return replies;
}

/** The request body the node sends for the prompt, plus the node option Extra Body. */
function requestBody(options: INodeParameters = {}): IDataObject {
	const extra =
		typeof options.extraBody === 'string' ? (JSON.parse(options.extraBody) as IDataObject) : {};
	return { model: MODEL, messages: [{ role: 'user', content: PROMPT }], ...extra };
}

function replyText(completion: unknown): string {
	const content = (completion as { choices?: Array<{ message?: { content?: unknown } }> })
		.choices?.[0]?.message?.content;
	if (typeof content !== 'string')
		throw new Error(`No reply text in ${JSON.stringify(completion).slice(0, 200)}`);
	return content;
}

function fetchClient(baseUrl: string): Client {
	return {
		async run(count, options) {
			const body = JSON.stringify(requestBody(options));
			const items: INodeExecutionData[] = [];
			for (let index = 0; index < count; index++) {
				const response = await fetch(`${baseUrl}/chat/completions`, {
					method: 'POST',
					headers: {
						Authorization: `Bearer ${keys.default}`,
						'Content-Type': 'application/json',
						Accept: 'application/json',
					},
					body,
				});
				items.push({
					json: { content: replyText(JSON.parse(await response.text())) },
					pairedItem: { item: index },
				});
			}
			return items;
		},
		reply: contentOf,
	};
}

/** Sends each item's request through n8n's request helper with the node's own request options. */
class HelperOnly implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Helper Only',
		name: 'helperOnly',
		group: ['transform'],
		version: 1,
		description: "Sends the chat request through n8n's request helper and nothing else",
		defaults: { name: 'Helper Only' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [{ displayName: 'Body', name: 'body', type: 'json', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials(CREDENTIAL_TYPE);
		const body = JSON.parse(this.getNodeParameter('body', 0) as string) as IDataObject;
		const items: INodeExecutionData[] = [];
		for (let index = 0; index < this.getInputData().length; index++) {
			const completion = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{
					method: 'POST',
					url: `${baseUrl as string}/chat/completions`,
					body,
					json: true,
					timeout: TIMEOUT_MS,
				},
			)) as unknown;
			items.push({ json: { content: replyText(completion) }, pairedItem: { item: index } });
		}
		return [items];
	}
}

function engineFor(baseUrl: string): Engine {
	return createEngine({
		nodeTypes: { [CHAT_NODE]: new ChatCompletion(), [HELPER_NODE]: new HelperOnly() },
		credentialTypes: { [CREDENTIAL_TYPE]: new ChatCompletionsApi() },
		credentials: { [CREDENTIAL_TYPE]: { apiKey: keys.default, baseUrl } },
	});
}

/** Runs `count` empty items through one execution of a node; fails loudly when an item got no reply. */
function engineClient(
	baseUrl: string,
	type: string,
	parameters: (options?: INodeParameters) => INodeParameters,
): Client {
	const engine = engineFor(baseUrl);
	return {
		async run(count, options) {
			const items = Array.from({ length: count }, () => ({ json: {} }));
			const result = await engine.runNode({ type, parameters: parameters(options), items });
			return answeredItems(type, count, result, contentOf);
		},
		reply: contentOf,
	};
}

export function createClient(name: ClientName, baseUrl: string): Client {
	if (name === 'fetch') return fetchClient(baseUrl);
	if (name === 'helper') {
		return engineClient(baseUrl, HELPER_NODE, (options) => ({
			body: JSON.stringify(requestBody(options)),
		}));
	}
	return engineClient(baseUrl, CHAT_NODE, (options = {}) => ({
		model: { __rl: true, mode: 'id', value: MODEL },
		promptType: 'simple',
		prompt: PROMPT,
		options: { concurrency: 1, ...options },
	}));
}
