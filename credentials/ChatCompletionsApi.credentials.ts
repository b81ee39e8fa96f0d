import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { authorization, ownHeaderNames, SECRET_HEADERS_RULE } from '../engine';

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
		{
			displayName: 'Extra Headers',
			name: 'extraHeaders',
			type: 'json',
			default: '',
			placeholder: 'e.g. {"HTTP-Referer": "https://example.com", "X-Title": "My workflow"}',
			hint: `A JSON object of header names and text values. It cannot set the headers the node sets itself: ${ownHeaderNames()
				.map((name) => (name === 'Authorization' ? 'Authorization (the API Key)' : name))
				.join(', ')}.`,
			description: `Headers sent with every request to the service, e.g. the ones a gateway or a company proxy routes, attributes or authorises by. Whoever may open this credential (its owner, and those it is shared with) sees the values here. ${SECRET_HEADERS_RULE}`,
		},
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
