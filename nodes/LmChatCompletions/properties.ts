import type { INodeProperties } from 'n8n-workflow';

import type { OptionName } from '../../engine';
import { optionsCollection, responseFormatFields } from '../../engine';

/** The hint n8n's own Chat Model nodes show: a model is a sub-node of an AI chain or agent. */
export const connectionHint: INodeProperties = {
	displayName:
		"This node must be connected to an AI chain. <a data-action='openSelectiveNodeCreator' data-action-parameter-creatorview='AI'>Insert one</a>",
	name: 'notice',
	type: 'notice',
	default: '',
	typeOptions: { containerClass: 'ndv-connection-hint-notice' },
};

/**
 * The Chat Model's Options: Chat Completion's options that mean the same for a model an AI node calls.
 * Not here: Stream (the AI node decides), Concurrency (the AI node sends one request per turn), Max Image
 * Size (the AI node reads the images), Token Budget (a model has no run of items to budget).
 */
/**
 * From version 1.1, Response Format, JSON Schema, Strict Schema and Repair Attempts are fields below Model
 * (version 1 keeps them in Options).
 */
export const RESPONSE_FORMAT_FIELDS_FROM = 1.1;

export const responseFormatProperties = responseFormatFields(RESPONSE_FORMAT_FIELDS_FROM);

/** The options the Chat Model offers, in the table's names. */
export const CHAT_MODEL_OPTIONS: readonly OptionName[] = [
	'temperature',
	'topP',
	'maxTokens',
	'reasoningEffort',
	'promptCaching',
	'promptCacheTtl',
	'timeout',
	'maxRetries',
	'maxRetryWait',
	'maxRateLimitWait',
	'retryTimeouts',
	'fallbackModels',
	'extraBody',
	'responseFormat',
	'jsonSchema',
	'strictSchema',
	'repairAttempts',
	'streamUsage',
];

export const optionsProperty = optionsCollection(CHAT_MODEL_OPTIONS, RESPONSE_FORMAT_FIELDS_FROM);
