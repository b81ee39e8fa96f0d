/**
 * The engine's front door: everything the nodes use of it, and nothing else. Nodes import from here only;
 * what is not exported here is the engine's own business.
 */
export { ChatClient } from './client';
export type { ModelReply } from './client';
export { Admission } from './concurrency/admission';
export { autoLimiter, fixedLimiter } from './concurrency/limiter';
export type { Limiter } from './concurrency/limiter';
export { cleanApiKey, connectionFrom, redactApiKey } from './connection';
export type { Connection } from './connection';
export {
	IncompleteReplyError,
	InputError,
	ReplyError,
	StructuredReplyError,
	TokenBudgetSpent,
} from './failures';
export { tryParseJson } from './json';
export { testChatCompletionsApi } from './models/credential-test';
export { modelProperty } from './models/property';
export { searchModels } from './models/search';
export { optionsCollection, responseFormatFields } from './options/properties';
export { optionChoice, optionSetting, optionValue, withResponseFormatFields } from './options/read';
export { optionPath, OPTIONS } from './options/table';
export type { OptionName } from './options/table';
export { describeProblem } from './problems/describe-problem';
export { errorItemJson, toNodeError } from './problems/node-error';
export type { Problem, ProblemContext } from './problems/problem';
export type {
	ChatMessage,
	ChatRequestBody,
	Completion,
	ContentPart,
	ImagePart,
	ProtocolToolCall,
	Role,
	ToolDefinition,
} from './protocol';
export { sentReasoning, splitReasoning } from './reply/reasoning';
export { thinkSplitter } from './reply/think-stream';
export { buildChatRequest } from './request/build';
export type { ChatRequest, RequestParts } from './request/input';
export { checkName, checkParameters, checkTools } from './request/tools';
export { Flow } from './retry/flow';
export { readJson } from './structured/read-json';
export { TokenBudget } from './token-budget';
export type { ChatReply } from './structured/structured-reply';
export { CREDENTIAL_TYPE } from './transport/http';
export { describe, emptyExpression, isPlainObject, named, parseJsonField } from './values';
