/**
 * The engine's front door: everything the nodes use of it, and nothing else. Nodes import from here only;
 * what is not exported here is the engine's own business.
 */

// The credential: the key and Base URL as users paste them, its test, the model list.
export { authorization, connectionFrom } from './connection';
export type { Connection } from './connection';
export { testChatCompletionsApi } from './models/credential-test';
export { modelProperty } from './models/property';
export { knownModels } from './models/known-models';
export { searchModels } from './models/search';
export { CREDENTIAL_TYPE } from './transport/outgoing';

// The options: the table, the UI made from it, the values read from it.
export { optionsCollection, responseFormatFields } from './options/properties';
export {
	optionChoice,
	optionSetting,
	optionText,
	optionValue,
	withResponseFormatFields,
} from './options/read';
export { optionPath, OPTIONS } from './options/table';
export type { OptionName } from './options/table';

// A request: the protocol's shapes, the request built and checked, values users typed.
export type {
	ChatMessage,
	ChatRequestBody,
	Completion,
	ContentPart,
	FilePart,
	ImagePart,
	ProtocolToolCall,
	Role,
	ToolDefinition,
} from './protocol';
export { REASONING_TEXT_FIELDS } from './protocol';
export { buildChatRequest } from './request/build';
export type { ChatRequest, RequestParts } from './request/input';
export { checkName, checkParameters, checkTools } from './request/tools';
export { describe, emptyExpression, isPlainObject, named, parseJsonField } from './values';
export { tryParseJson } from './json';

// A run and its replies: the client both nodes call, what a reply holds, reasoning and JSON read from it.
export { ChatClient } from './client';
export type { ModelReply } from './client';
export type { Run } from './run/run';
export { startRun } from './run/start';
export { sentReasoning, splitReasoning } from './reply/reasoning';
export { thinkSplitter } from './reply/think-stream';
export { readJson } from './structured/read-json';
export type { ChatReply } from './structured/structured-reply';

// Embeddings: the request checked once, and the client that sends its batches.
export { EmbeddingsClient } from './embeddings/client';
export type { EmbeddingsReply, EmbeddingsUsage } from './embeddings/read-reply';
export { buildEmbeddingsRequest } from './embeddings/request';
export type { EmbeddingsRequest } from './embeddings/request';

// Failures: the kinds a node throws, the node's words, and the words and n8n errors the user sees.
export {
	CutReplyError,
	InputError,
	ReplyError,
	StructuredReplyError,
	ToolArgumentsError,
	UnknownToolError,
} from './failures/errors';
export type { NodeWords } from './failures/kind';
export { chatWords } from './problems/chat-words';
export { describeProblem } from './problems/describe-problem';
export { errorItemJson, toNodeError } from './problems/node-error';
export type { Problem, ProblemContext } from './problems/problem';
