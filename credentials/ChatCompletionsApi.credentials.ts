import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { authorization, extraHeadersProperty } from '../engine';

export class ChatCompletionsApi implements ICredentialType {
	name = 'chatCompletionsApi';

	displayName = 'Chat Completions API';

	icon: Icon = {
		light: 'file:../icons/chat-completions.svg',
		dark: 'file:../icons/chat-completions.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-chat-completions/n8n-nodes-chat-completions/blob/main/docs/credential.md';

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
			hint: 'Include the version segment /v1: without it the service answers 404 to every request. A pasted /chat/completions or trailing slash is removed.',
			description: 'Address of the service, including the version segment /v1',
		},
		extraHeadersProperty,
	];

	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: authorization(credentials),
		},
	});
}
