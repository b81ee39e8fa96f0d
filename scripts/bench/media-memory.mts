/**
 * One 20 MB recording transcribed by the Chat Completions Media node in n8n's engine, in a process of its own
 * (started by scripts/bench/media.mts): the process's peak RSS above what it held once the modules were loaded,
 * one small recording had gone through the same code, and the item held the recording (base64, as n8n's default
 * binary mode holds it). Prints one
 * JSON line.
 */
import process from 'node:process';

import type { INodeExecutionData } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials.ts';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node.ts';
import { createEngine, disposeEngine } from '../../dev/n8n-core/harness.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import { silentWav } from '../../test/support/media.cts';

const SECONDS = 655; // 16-bit mono at 16 kHz: 20.0 MiB
const TYPE = 'n8n-nodes-chat-completions.mediaChatCompletions';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('Run with node --expose-gc.');

const service = await startService();
try {
	const engine = createEngine({
		nodeTypes: { [TYPE]: new MediaChatCompletions() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey: keys.media, baseUrl: service.baseUrl } },
	});
	// The recording as n8n's default binary mode holds it in an item: base64, made before the measurement.
	const item = (recording: Buffer): INodeExecutionData[] => [
		{
			json: {},
			binary: {
				data: { data: recording.toString('base64'), fileName: 'talk.wav', mimeType: 'audio/wav' },
			},
		},
	];
	const transcribe = async (items: INodeExecutionData[]) => {
		const { outputs, error } = await engine.runNode({
			type: TYPE,
			parameters: {
				resource: 'audio',
				operation: 'transcribe',
				model: { __rl: true, mode: 'id', value: 'whisper-local' },
				binaryPropertyName: 'data',
				options: {},
			},
			items,
		});
		if (error !== undefined) throw error;
		return String(outputs[0][0].json.text);
	};
	await transcribe(item(silentWav(1)));
	const recording = silentWav(SECONDS);
	const items = item(recording);
	gc();
	const startRss = process.memoryUsage().rss;
	const text = await transcribe(items);
	const peakRss = process.resourceUsage().maxRSS * 1024;
	console.log(JSON.stringify({ fileBytes: recording.length, growth: peakRss - startRss, text }));
} finally {
	await service.stop();
	await disposeEngine();
}
process.exit(0);
