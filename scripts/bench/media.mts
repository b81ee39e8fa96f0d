/**
 * `npm run bench -- media`: (1) 50 items generating one image each at the nodes' defaults, the Chat Completions
 * Media node beside n8n's OpenAI node (Image > Generate an Image, its openAiApi credential's Base URL on the same
 * local service, same key), both in n8n's engine, taking turns; the service answers in 200 ms (an image model
 * takes seconds; the ratio only grows with it). Target: ours at most 0.3x the time. (2) A 20 MB recording
 * transcribed by the Media node in a process of its own (scripts/bench/media-memory.mts): its peak memory growth
 * against the file's size (target: at most 3x). n8n's OpenAI node sends `whisper-1` whatever is chosen, a model the
 * local service does not have, so it is not measured beside it here.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import process from 'node:process';
import { promisify } from 'node:util';

import type { INode, INodeExecutionData } from 'n8n-workflow';

import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node.ts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import { LANGCHAIN, n8nType } from './n8n-install.mts';
import { sideBySideCredentials } from './openai-credentials.mts';
import { mb, median } from './stats.mts';

const ITEMS = 50;
const ROUNDS = 3;
const LATENCY_MS = 200;

const OURS = 'n8n-nodes-chat-completions.mediaChatCompletions';
const OPEN_AI = '@n8n/n8n-nodes-langchain.openAi';

const contenders: Record<'ours' | 'openAi', { label: string; node: INode }> = {
	ours: {
		label: 'Chat Completions Media',
		node: {
			id: 'm',
			name: 'Generate',
			type: OURS,
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				resource: 'image',
				operation: 'generate',
				model: { __rl: true, mode: 'id', value: 'image-1' },
				prompt: '={{ $json.prompt }}',
				options: {},
			},
			credentials: { chatCompletionsApi: { id: 'c', name: 'c' } },
		},
	},
	openAi: {
		label: "OpenAI (n8n's node)",
		node: {
			id: 'o',
			name: 'Generate',
			type: OPEN_AI,
			typeVersion: 2.3,
			position: [0, 0],
			parameters: {
				resource: 'image',
				operation: 'generate',
				modelId: { __rl: true, mode: 'id', value: 'image-1' },
				prompt: '={{ $json.prompt }}',
				options: {},
			},
			credentials: { openAiApi: { id: 'o', name: 'o' } },
		},
	},
};

const items: INodeExecutionData[] = Array.from({ length: ITEMS }, (_, n) => ({
	json: { prompt: `A lighthouse, picture ${n + 1}` },
}));

async function images(): Promise<void> {
	const service = await startService({ args: ['--latency-ms', String(LATENCY_MS)] });
	try {
		const engine = createEngine({
			nodeTypes: {
				[OURS]: new MediaChatCompletions(),
				[OPEN_AI]: n8nType(`${LANGCHAIN}/vendors/OpenAi/OpenAi.node.js`, 'OpenAi'),
			},
			...sideBySideCredentials(keys.media, service.baseUrl),
		});
		const names = Object.keys(contenders) as Array<keyof typeof contenders>;
		const times: Record<keyof typeof contenders, number[]> = { ours: [], openAi: [] };
		for (let round = -1; round < ROUNDS; round++) {
			for (const name of round % 2 === 0 ? names : [...names].reverse()) {
				const started = performance.now();
				const { outputs, error } = await engine.runNode({
					type: contenders[name].node.type,
					typeVersion: contenders[name].node.typeVersion,
					parameters: contenders[name].node.parameters,
					items,
				});
				const elapsed = performance.now() - started;
				const made = outputs[0]?.filter((item) => item.binary?.data !== undefined).length ?? 0;
				if (error !== undefined || made !== ITEMS) {
					throw new Error(`${contenders[name].label}: ${made} images; ${error?.message}`);
				}
				if (round >= 0) times[name].push(elapsed);
			}
		}
		console.log(
			`\nMedia: ${ITEMS} items generating one image each, both nodes at their defaults, the service answering in ${LATENCY_MS} ms; median of ${ROUNDS} rounds taking turns`,
		);
		for (const name of names) {
			console.log(
				`  ${contenders[name].label.padEnd(24)} ${(median(times[name]) / 1000).toFixed(2)} s`,
			);
		}
		console.log(
			`  ours / OpenAI: ${(median(times.ours) / median(times.openAi)).toFixed(2)}x (target <= 0.3x)`,
		);
	} finally {
		await service.stop();
	}
}

/** The recording's figures, from scripts/bench/media-memory.mts in a fresh process. */
async function recording(): Promise<void> {
	const run = resolve(import.meta.dirname, 'media-memory.mts');
	const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, run], {
		maxBuffer: 1024 * 1024,
	});
	const { fileBytes, growth, text } = JSON.parse(stdout.trim().split('\n').pop()!) as {
		fileBytes: number;
		growth: number;
		text: string;
	};
	console.log(
		`\nMedia: a ${mb(fileBytes)} recording transcribed by the Chat Completions Media node`,
	);
	console.log(`  transcript: ${text.slice(0, 60)}`);
	console.log(
		`  peak memory growth ${mb(growth)} = ${(growth / fileBytes).toFixed(2)}x the file (target <= 3x)`,
	);
}

export async function benchMedia(): Promise<void> {
	await images();
	await recording();
}
