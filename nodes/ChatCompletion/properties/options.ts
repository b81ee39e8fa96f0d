import type { INodeProperties } from 'n8n-workflow';

import { FIELDS } from '../fields';
import { OPTIONS, optionsCollection } from '../../../engine';

export const simplifyProperty: INodeProperties = {
	displayName: FIELDS.simplify.label,
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return the reply as content, tool_calls, usage and the conversation instead of the raw response of the service',
};

/** Chat Completion offers every option of the table. */
export const optionsProperty = optionsCollection(OPTIONS.map((spec) => spec.name));
