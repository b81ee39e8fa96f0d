/**
 * The two nodes the batch benchmark sets side by side, both at their defaults in one n8n engine, sending
 * the same chat request for every item (`{ prompt }`) to the same local service with the same key:
 * - `ours`: the Chat Completion node: model echo-1, User Prompt `{{ $json.prompt }}`, no option set, so that
 *   whatever its defaults are (Concurrency, retries) is what is measured;
 * - `httpRequest`: n8n's HTTP Request node (its latest version) as a user builds it for a chat-completions
 *   service: POST `<baseUrl>/chat/completions`, JSON body `{ model, messages }` from an expression, the key in a
 *   Header Auth credential (`Authorization: Bearer ...`), every option at its default. Version 4 sends each
 *   item's request as soon as it has read the item, with no limit of its own (Options > Batching is off),
 *   and waits for all of them at the end; it never retries.
 * On Error is n8n's default (Stop Workflow) unless a batch's settings say otherwise.
 */
import type { IDataObject, INodeExecutionData, StructuredChunk } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials.ts';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node.ts';
import { baseCredentialType, baseNodeType } from '../../dev/n8n-core/base-types.cts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { NodeSettings, RunNodeResult } from '../../dev/n8n-core/harness.cts';
import {
	CHAT_NODE,
	chatParameters,
	contentOf,
	HEADER_AUTH,
	headerAuth,
	HTTP_REQUEST_NODE,
	httpRequestParameters,
	httpRequestReply,
} from './chat-request.mts';
import type { Client } from './clients.mts';
import { answeredItems, CREDENTIAL_TYPE } from './clients.mts';

export const CONTENDER_NAMES = ['ours', 'httpRequest'] as const;
export type ContenderName = (typeof CONTENDER_NAMES)[number];

export const CONTENDER_LABELS: Record<ContenderName, string> = {
	ours: 'Chat Completion',
	httpRequest: 'HTTP Request',
};

export interface Batch {
	count: number;
	settings?: NodeSettings;
	/** Merged into every request body (e.g. `x_local` knobs): ours through its Extra Body option. */
	extraBody?: IDataObject;
	/** Ours only: Options > Concurrency; unset, the default. */
	concurrency?: number;
	/** Ours only: a streaming run with Options > Stream on, every chunk the node sends to the client here. */
	onChunk?: (chunk: StructuredChunk) => void;
}

export interface Contender {
	/** One execution of the node over `count` items `{ prompt: "Item N" }`. */
	run(batch: Batch): Promise<RunNodeResult>;
	/** The reply text of an output item; undefined for an error item. */
	reply(item: INodeExecutionData): string | undefined;
}

/** `count` items `{ prompt: "Item N" }`. */
export const items = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ json: { prompt: `Item ${index + 1}` } }));

export function createContenders(
	baseUrl: string,
	apiKey: string,
): Record<ContenderName, Contender> {
	const engine = createEngine({
		nodeTypes: {
			[CHAT_NODE]: new ChatCompletion(),
			[HTTP_REQUEST_NODE]: baseNodeType('HttpRequest', 'HttpRequest'),
		},
		credentialTypes: {
			[CREDENTIAL_TYPE]: new ChatCompletionsApi(),
			[HEADER_AUTH]: baseCredentialType('HttpHeaderAuth'),
		},
		credentials: { [CREDENTIAL_TYPE]: { apiKey, baseUrl }, [HEADER_AUTH]: headerAuth(apiKey) },
	});
	return {
		ours: {
			run: ({ count, settings, extraBody, concurrency, onChunk }) =>
				engine.runNode({
					type: CHAT_NODE,
					parameters: chatParameters(extraBody, concurrency, onChunk !== undefined),
					items: items(count),
					settings,
					onChunk,
				}),
			reply: contentOf,
		},
		httpRequest: {
			run: ({ count, settings, extraBody }) =>
				engine.runNode({
					type: HTTP_REQUEST_NODE,
					parameters: httpRequestParameters(baseUrl, extraBody),
					credentials: [HEADER_AUTH],
					items: items(count),
					settings,
				}),
			reply: httpRequestReply,
		},
	};
}

/**
 * A contender as a benchmark client (scripts/bench/memory-run.mts): `options.extraBody` is JSON text, as the
 * other clients take it, `options.concurrency` ours only; fails loudly when an item got no reply.
 */
export function contenderClient(name: ContenderName, baseUrl: string, apiKey: string): Client {
	const contender = createContenders(baseUrl, apiKey)[name];
	return {
		async run(count, options = {}) {
			const extraBody =
				typeof options.extraBody === 'string'
					? (JSON.parse(options.extraBody) as IDataObject)
					: undefined;
			const concurrency = typeof options.concurrency === 'number' ? options.concurrency : undefined;
			const result = await contender.run({ count, extraBody, concurrency });
			return answeredItems(CONTENDER_LABELS[name], count, result, contender.reply);
		},
		reply: contender.reply,
	};
}
