/**
 * The credentials of a bench of ours against one of n8n's OpenAI nodes: our credential and n8n's OpenAI credential
 * (its Base URL override) on the same key of the local service, as `createEngine` takes them.
 */
import type { ICredentialType } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials.ts';
import { n8nType } from './n8n-install.mts';

export function sideBySideCredentials(apiKey: string, baseUrl: string) {
	return {
		credentialTypes: {
			chatCompletionsApi: new ChatCompletionsApi(),
			openAiApi: n8nType<ICredentialType>(
				'n8n-nodes-base/dist/credentials/OpenAiApi.credentials.js',
				'OpenAiApi',
			),
		},
		credentials: {
			chatCompletionsApi: { apiKey, baseUrl },
			openAiApi: { apiKey, url: baseUrl },
		},
	};
}
