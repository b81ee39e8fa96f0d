/**
 * The engine's front door: everything the nodes (and scripts/) use of it, and nothing else. Nodes import from
 * here only; what is not exported here is the engine's own business. Six families come as namespaces, each
 * one file (or folder) of the engine: `protocol` (the wire's shapes), `values` (checking and describing values
 * users typed, JSON parsed without throwing), `subNode` (the vector store's sub-nodes: their clients, and the
 * hint, log and errors they share), `media` (images and audio), `errors` (the failure classes a node throws or
 * tells apart: `failures/index.ts`) and `problems` (a failure in the words the user reads, and n8n's errors made
 * from them). test/unit/engine/door.test.cts counts the names, namespaces' members included, against
 * engine/README.md's maximum.
 */

// The credential: the key and Base URL as users paste them, its test and the model list.
export { authorization, readConnection } from './connection';
export { extraHeadersProperty } from './extra-headers';
export type { Connection } from './connection';
export { credentialMethods, modelMethods } from './models/methods';
export { modelProperty } from './request/model-id';
export { knownModels } from './models/known-models';

// The options: the table, the UI made from it, the values read from it.
export { checkAddedOptions, isExpression } from './options/added';
export { optionsCollection, responseFormatFields } from './options/properties';
export {
	optionChoice,
	optionSetting,
	optionText,
	optionValue,
	withResponseFormatFields,
} from './options/read';
export { endpointDescriptions, optionPath, OPTIONS } from './options/table';
export type { OptionName } from './options/table';

// A request: the protocol's shapes, the request built and checked, values users typed.
export * as protocol from './protocol';
export { buildChatRequest } from './request/build';
export type { ChatRequest, RequestParts } from './request/input';
export { checkName, checkParameters, checkTools } from './request/tools';
export * as values from './values';

// A run and its replies: the client both nodes call, what a reply holds, reasoning and JSON read from it.
export { ChatClient } from './client';
export type { ModelReply } from './client';
export type { Run } from './run/run';
export { startRun } from './run/start';
export { promptCacheOf } from './reply/cache-usage';
export { sentReasoning, splitReasoning } from './reply/reasoning';
export { thinkSplitter } from './reply/think-stream';
export { readJson } from './structured/read-json';

// A batch of input items: the one loop every action node runs its items through.
export { runItems } from './batch/run-items';
export type { BatchJob } from './batch/job';

// The sub-nodes of a vector store: Embeddings and Reranker, their clients and what they share as n8n nodes.
export * as subNode from './sub-node';

// Images and audio: the media node's operations, their requests and client.
export * as media from './media';

// The account behind the key: its balance and its models' catalogue.
export { keyBalance } from './account';
export { keyModels } from './models/key-models';

// Failures: the kinds a node throws or tells apart, and the words and n8n errors the user sees.
export * as errors from './failures';
export * as problems from './problems';
