/**
 * "Try it": starts the local service, runs examples/chat.workflow.json through n8n's execution
 * engine with the built node (dist/), and prints the reply. With --serve the service keeps running.
 */
import type { IDataObject } from 'n8n-workflow';

import { ChatCompletionsApi } from '../dist/credentials/ChatCompletionsApi.credentials';
import { ChatCompletion } from '../dist/nodes/ChatCompletion/ChatCompletion.node';
import { disposeEngine } from '../test/support/engine.cts';
import { exampleEngine, loadExample } from '../test/support/examples.cts';
import { keys, startService } from '../test/support/service.cts';

const serve = process.argv.includes('--serve');
const question = process.argv.slice(2).filter((arg) => !arg.startsWith('--')).join(' ') || 'What can you do for my workflows?';

async function main(): Promise<void> {
	const service = await startService(serve ? { args: ['--port', '8787'] } : undefined);
	try {
		console.log(`Local Chat Completions service: ${service.baseUrl} (API key ${keys.default})`);
		const { runData, error } = await exampleEngine(
			{ node: new ChatCompletion(), credential: new ChatCompletionsApi() },
			keys.default,
			service.baseUrl,
		).runWorkflow({
			workflow: loadExample('chat', service.origin),
			startNode: 'Chat Completion',
			items: [{ json: { question } }],
		});
		if (error) throw new Error(`${error.message}\n${error.description ?? ''}`);
		const reply = runData['Chat Completion'][0].data?.main[0]?.[0]?.json as IDataObject;
		console.log(`\nYou asked: ${question}`);
		console.log(`Reply (${reply.model}, ${(reply.usage as IDataObject).total_tokens} tokens): ${reply.content}\n`);
		console.log('Output item of the Chat Completion node:');
		console.log(JSON.stringify(reply, null, 2));
		if (serve) {
			console.log(`\nThe service keeps running at ${service.baseUrl}; press Ctrl+C to stop it.`);
			await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
		}
	} finally {
		await service.stop();
		await disposeEngine();
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
