/**
 * Measurement, not a check (runs only with CHAT_MODEL_BENCH=1): one AI Agent turn with one tool call in a
 * real n8n, the agent's model being this package's Chat Model or n8n's OpenAI Chat Model (v1.3, Responses
 * API off, Base URL to the same local service). Both answer the same question the same way: two model
 * calls and one Code Tool run. Calls alternate in blocks so that machine load falls on both alike; prints
 * the median time per turn of each, their ratio (ours / theirs) with a bootstrap interval, and where a turn's time goes, from the
 * service's arrival times: until the first model request arrives (the webhook, the agent, the model's
 * setup and first request), between the two requests (the first reply read, the tool run, the second
 * request), and after the second (its reply read, the agent's answer, the webhook's response).
 * With CHAT_MODEL_BENCH_REMOTE=1 (`npm run bench -- remote`) both models reach the service through the remote
 * relay (dev/relay/: TLS with the CA bench.sh put in NODE_EXTRA_CA_CERTS, which n8n inherits, a 50 ms round
 * trip), and the connections and TLS handshakes each side cost are printed too.
 */
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import { localCredential } from '../../dev/n8n/examples.cts';
import { keys, useLocalService } from '../support/service.cts';
import type { ModelSetup } from './chat-model-workflows.cts';
import { agentWorkflow, openAiChatModel, withNode } from './chat-model-workflows.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import type { Relay, RelayCounts } from '../../dev/relay/start.cts';
import { connectionsLine, startRelay, tlsDirFromEnv } from '../../dev/relay/start.cts';

const QUESTION = 'What is the weather in Paris?';
/** n8n's own model sends the agent's extra `id` key back in the arguments, so its answer shows it. */
const ANSWER =
	/^Based on the tools: Weather\(\{"city":"Paris"(,"id":"call_[0-9a-f]+")?\}\) = \[\{"response":"Paris: sunny, 21 °C"\}\]$/;
const BLOCKS = Number(process.env.CHAT_MODEL_BENCH_BLOCKS ?? 20);
const PER_BLOCK = 5;
const WARM_UP = 5;

const run = process.env.CHAT_MODEL_BENCH === '1' ? describe : describe.skip;
const remote = process.env.CHAT_MODEL_BENCH_REMOTE === '1';

/**
 * The same agent, built by the same workflow builder, with n8n's OpenAI Chat Model (Chat Completions, not the
 * Responses API) in the model's place.
 */
function theirAgent(
	path: string,
	baseUrl: string,
	credential: ModelSetup['credential'],
): WorkflowToImport {
	const workflow = withNode(
		agentWorkflow(path, { credential, model: 'tools-1' }),
		openAiChatModel(baseUrl, { id: 'openai-local', name: 'OpenAI (local service)' }),
	);
	return { ...workflow, name: `AI Agent with n8n's OpenAI Chat Model: ${path}` };
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * How far the ratio of medians could move by chance: 2,000 bootstrap resamples of each side's turns (a seeded
 * generator, so a run can be replayed), and the middle 95% of the ratios they give.
 */
function ratioInterval(ours: number[], theirs: number[]): [number, number] {
	let state = 12345;
	const random = () => {
		state = (state * 1103515245 + 12345) % 2 ** 31;
		return state / 2 ** 31;
	};
	const resample = (values: number[]) =>
		values.map(() => values[Math.floor(random() * values.length)]);
	const ratios = Array.from(
		{ length: 2000 },
		() => median(resample(ours)) / median(resample(theirs)),
	).sort((a, b) => a - b);
	return [ratios[Math.floor(ratios.length * 0.025)], ratios[Math.floor(ratios.length * 0.975)]];
}

run("an AI Agent turn with one tool call: this Chat Model against n8n's OpenAI Chat Model", () => {
	const service = useLocalService();
	let relay: Relay | undefined;
	if (remote) {
		beforeAll(async () => {
			relay = await startRelay(service().origin, tlsDirFromEnv());
		});
		afterAll(async () => relay?.stop());
	}
	/** Where both models send: the service, or the relay in front of it. */
	const baseUrl = () => relay?.baseUrl ?? service().baseUrl;
	const n8n = useRealN8n(() => {
		const credential = localCredential(keys.default, baseUrl());
		return {
			credentials: [
				credential,
				{
					id: 'openai-local',
					name: 'OpenAI (local service)',
					type: 'openAiApi',
					data: { apiKey: keys.default, url: baseUrl() },
				},
			],
			// Timed: on an n8n of its own, as users run it (dev/n8n/real-n8n.cts, `own`).
			own: true,
			workflows: [
				agentWorkflow('bench-ours', { credential, model: 'tools-1' }),
				theirAgent('bench-theirs', baseUrl(), credential),
			],
		};
	});

	/** Per path, each measured turn's three parts in ms (see above). */
	const parts: Record<string, number[][]> = { 'bench-ours': [], 'bench-theirs': [] };
	/** Per path, what the relay saw of the measured turns. */
	const seen: Record<string, RelayCounts> = {
		'bench-ours': { connections: 0, fullHandshakes: 0, resumedHandshakes: 0 },
		'bench-theirs': { connections: 0, fullHandshakes: 0, resumedHandshakes: 0 },
	};

	async function turn(path: string, measured = true): Promise<number> {
		await service().clearRequests();
		await relay?.reset();
		const started = performance.now();
		const response = await n8n().webhook(path, { question: QUESTION });
		const text = await response.text();
		const elapsed = performance.now() - started;
		const reply = JSON.parse(text) as { output?: string };
		if (!ANSWER.test(reply.output ?? '')) throw new Error(`${path} answered ${text}`);
		const [first, second] = (await service().requests()).map(
			(request) => request.receivedAt - (performance.timeOrigin + started),
		);
		if (measured) {
			parts[path].push([first, second - first, elapsed - second]);
			const counts = await relay?.reset();
			for (const key of Object.keys(counts ?? {}) as Array<keyof RelayCounts>)
				seen[path][key] += counts![key];
		}
		return elapsed;
	}

	test('median time per turn, ours / theirs', async () => {
		const times: Record<string, number[]> = { 'bench-ours': [], 'bench-theirs': [] };
		for (const path of Object.keys(times))
			for (let i = 0; i < WARM_UP; i++) await turn(path, false);
		for (let block = 0; block < BLOCKS; block++) {
			const order =
				block % 2 === 0 ? ['bench-ours', 'bench-theirs'] : ['bench-theirs', 'bench-ours'];
			for (const path of order)
				for (let i = 0; i < PER_BLOCK; i++) times[path].push(await turn(path));
		}
		const ours = median(times['bench-ours']);
		const theirs = median(times['bench-theirs']);
		console.log(
			`AI Agent turn with one tool call, ${times['bench-ours'].length} turns each: ` +
				`ours ${ours.toFixed(1)} ms, n8n's OpenAI Chat Model ${theirs.toFixed(1)} ms (medians), ` +
				`ours / theirs = ${(ours / theirs).toFixed(3)}`,
		);
		const [low, high] = ratioInterval(times['bench-ours'], times['bench-theirs']);
		console.log(`95% bootstrap interval of ours / theirs: ${low.toFixed(3)} to ${high.toFixed(3)}`);
		for (const [path, label] of [
			['bench-ours', 'ours'],
			['bench-theirs', 'theirs'],
		]) {
			const [first, between, after] = [0, 1, 2].map((part) =>
				median(parts[path].map((turnParts) => turnParts[part])).toFixed(1),
			);
			console.log(
				`${label}: ${first} ms until the first model request, ${between} ms between the two, ${after} ms after the second (medians)`,
			);
			if (remote)
				console.log(
					`${label}, through the relay, ${parts[path].length} turns of two model calls: ${connectionsLine(seen[path], 1)}`,
				);
		}
		expect(ours).toBeGreaterThan(0);
	}, 600_000);
});
