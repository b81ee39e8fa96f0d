import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { cleanApiKey } from '../nodes/ChatCompletion/shared/connection';

/** Matches a Base URL that does not end with a version segment such as /v1 (after the cleaning the node applies). */
const MISSING_VERSION = '^(?!.*/v\\d+[a-z0-9]*(/chat/completions|/models)?/*\\s*$).+$';

export class ChatCompletionsApi implements ICredentialType {
	name = 'chatCompletionsApi';

	displayName = 'Chat Completions API';

	icon: Icon = {
		light: 'file:../icons/chat-completions.svg',
		dark: 'file:../icons/chat-completions.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-chat-completions/n8n-nodes-chat-completions#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. sk-...',
			description:
				'The key created in the service console. Spaces around it and a pasted "Bearer " prefix are removed.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://api.example.com/v1',
			hint: 'Include the version segment /v1. A pasted /chat/completions or trailing slash is removed.',
			description: 'Address of the service, including the version segment /v1',
		},
		{
			displayName:
				'This Base URL has no version segment such as /v1: the service answers 404 to every request without it',
			name: 'missingVersionNotice',
			type: 'notice',
			default: '',
			displayOptions: {
				show: {
					baseUrl: [{ _cnd: { regex: MISSING_VERSION } }],
				},
			},
		},
	];

	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${cleanApiKey(credentials.apiKey)}`,
		},
	});
}
