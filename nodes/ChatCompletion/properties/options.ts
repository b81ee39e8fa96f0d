import type { INodeProperties } from 'n8n-workflow';

import { FIELDS } from '../fields';
import { OPTIONS, optionsCollection, responseFormatFields } from '../../../engine';

export const simplifyProperty: INodeProperties = {
	displayName: FIELDS.simplify.label,
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return the reply as content, tool_calls, usage and the conversation instead of the raw response of the service',
};

/**
 * From version 1.2, Response Format, JSON Schema, Strict Schema and Repair Attempts are fields below Tools
 * (earlier versions keep them in Options).
 */
export const RESPONSE_FORMAT_FIELDS_FROM = 1.2;

export const responseFormatProperties = responseFormatFields(RESPONSE_FORMAT_FIELDS_FROM);

/** Chat Completion offers every option of the table but the sub-nodes' own. */
export const CHAT_COMPLETION_OPTIONS = OPTIONS.filter((spec) => !('only' in spec)).map(
	(spec) => spec.name,
);

export const optionsProperty = optionsCollection(
	CHAT_COMPLETION_OPTIONS,
	RESPONSE_FORMAT_FIELDS_FROM,
);
