/** The example workflows of examples/ and the credential they use, ready for `n8n import:*`. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { CredentialToImport, WorkflowToImport } from './import.cts';

const examplesDir = resolve(__dirname, '..', '..', 'examples');

/** The examples' address of the local service: `npm run service` and "Try it" listen there. */
export const EXAMPLES_ORIGIN = 'http://127.0.0.1:8787';

/** The credential the examples name (by id), pointed at a local service. */
export function localCredential(
	apiKey: string,
	baseUrl = `${EXAMPLES_ORIGIN}/v1`,
): CredentialToImport {
	return {
		id: 'local-chat-completions',
		name: 'Local Chat Completions service',
		type: 'chatCompletionsApi',
		data: { apiKey, baseUrl },
	};
}

/** The credential the RAG example names: a key whose group has an embedding model and a chat model. */
export function localRagCredential(
	apiKey: string,
	baseUrl = `${EXAMPLES_ORIGIN}/v1`,
): CredentialToImport {
	return {
		...localCredential(apiKey, baseUrl),
		id: 'local-chat-completions-rag',
		name: 'Local Chat Completions service (RAG key)',
	};
}

/** The credential the image and audio examples name: a key whose group has image, transcription and voice models. */
export function localMediaCredential(
	apiKey: string,
	baseUrl = `${EXAMPLES_ORIGIN}/v1`,
): CredentialToImport {
	return {
		...localCredential(apiKey, baseUrl),
		id: 'local-chat-completions-media',
		name: 'Local Chat Completions service (media key)',
	};
}

/** The credential the video example names: a key whose video jobs are in OpenAI's shape. */
export function localVideoCredential(
	apiKey: string,
	baseUrl = `${EXAMPLES_ORIGIN}/v1`,
): CredentialToImport {
	return {
		...localCredential(apiKey, baseUrl),
		id: 'local-chat-completions-video',
		name: 'Local Chat Completions service (video key)',
	};
}

/** The credentials `npm run try` imports beside the examples: the local service's default, RAG, media and video keys. */
export function exampleCredentials(keys: {
	default: string;
	rag: string;
	media: string;
	'video-openai': string;
}): CredentialToImport[] {
	return [
		localCredential(keys.default),
		localRagCredential(keys.rag),
		localMediaCredential(keys.media),
		localVideoCredential(keys['video-openai']),
	];
}

/** Every examples/<name>.workflow.json, with the id `example-<name>` and the service at `origin`. */
export function readExamples(
	origin = EXAMPLES_ORIGIN,
): Array<{ name: string; workflow: WorkflowToImport }> {
	return readdirSync(examplesDir)
		.filter((file) => file.endsWith('.workflow.json'))
		.sort()
		.map((file) => {
			const name = file.replace(/\.workflow\.json$/, '');
			const text = readFileSync(join(examplesDir, file), 'utf8')
				.split(EXAMPLES_ORIGIN)
				.join(origin);
			return {
				name,
				workflow: { ...(JSON.parse(text) as WorkflowToImport), id: `example-${name}` },
			};
		});
}
