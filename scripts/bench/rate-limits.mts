/**
 * Batch part (f): 300 items at defaults against each kind of gateway's rate limit (the local service's styles,
 * dev/service/README.md), the Chat Completion node and n8n's AI Agent with the Chat Model (scripts/bench/agent.mts)
 * beside n8n's HTTP Request node, in n8n's engine, the service answering in 50 ms. The agent sends one item's
 * request at a time (its default batch size is 1), so its own floor, the agent on a key without limit, is timed
 * once too. Per style: elapsed against the ideal (items / allowed rate; for the cap on requests in
 * flight, items x service time / cap), items without their reply, requests sent and the share answered 429.
 * Targets for ours (the node and the agent alike): 0 failed items, <= 1.3x the ideal; with the x-ratelimit headers (openai, litellm) at most
 * 5% of requests answered 429; with the cap, 429s only in the first burst.
 */
import type { RunNodeResult } from '../../dev/n8n-core/harness.cts';
import type { LocalService } from '../../dev/service-client/local-service.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import type { Contender } from './contenders.mts';
import { CONTENDER_LABELS, createContenders } from './contenders.mts';
import { AGENT_LABEL, agentContender } from './agent.mts';
import { drained } from './traffic.mts';

const ITEMS = 300;
const LATENCY_MS = 50;

interface Style {
	name: string;
	limit: string;
	/** The least time the limit allows for ITEMS, in s. */
	ideal: number;
	target: string;
	/** For a cap on requests in flight: ours at that Concurrency on a key without limit is timed too, as the floor. */
	cap?: number;
}

const STYLES: Style[] = [
	{ name: 'retry-after-ms', limit: '50/s', ideal: ITEMS / 50, target: '<= 1.3x' },
	{ name: 'openai', limit: '100/2s', ideal: ITEMS / 50, target: '<= 1.3x, <= 5% 429' },
	{ name: 'litellm', limit: '100/2s', ideal: ITEMS / 50, target: '<= 1.3x, <= 5% 429' },
	{ name: 'openrouter', limit: '100/2s', ideal: ITEMS / 50, target: '<= 1.3x' },
	{
		name: 'new-api',
		limit: '1000000/s,8',
		ideal: (ITEMS * LATENCY_MS) / 8 / 1000,
		target: '<= 1.3x, 429s in the first burst only',
		cap: 8,
	},
	{ name: 'new-api', limit: '150/3s', ideal: ITEMS / 50, target: '<= 1.3x' },
];

interface Figures {
	seconds: number;
	failed: number;
	requests: number;
	rejected: number;
	/** How long after the first answer the last 429 was sent, in ms (none: undefined). */
	lastRejectedAfterMs?: number;
}

async function measure(
	service: LocalService,
	contender: Contender,
	run: () => Promise<RunNodeResult>,
): Promise<Figures> {
	await drained(service, 'limited');
	await service.clearRequests();
	const started = performance.now();
	const result = await run();
	const seconds = (performance.now() - started) / 1000;
	await drained(service, 'limited');
	const traffic = (await service.traffic()).limited;
	const items = result.outputs.flat();
	const failed = result.error
		? ITEMS
		: items.filter((item) => contender.reply(item) === undefined).length;
	const { timeline, lastRejectedAt } = traffic;
	const firstAnswer = timeline.find(
		(point, index) => index > 0 && point.inFlight < timeline[index - 1].inFlight,
	);
	return {
		seconds,
		failed,
		requests: traffic.admitted + traffic.rejected,
		rejected: traffic.rejected,
		lastRejectedAfterMs:
			lastRejectedAt === null || firstAnswer === undefined
				? undefined
				: Math.round(lastRejectedAt - firstAnswer.at),
	};
}

const line = (label: string, figures: Figures, ideal: number) =>
	`  ${label.padEnd(21)} ${figures.seconds.toFixed(2)} s = ${(figures.seconds / ideal).toFixed(2)}x the ideal; ` +
	`failed items ${figures.failed} of ${ITEMS}; requests ${figures.requests}, answered 429 ${figures.rejected} ` +
	`(${((100 * figures.rejected) / Math.max(1, figures.requests)).toFixed(1)}%)` +
	(figures.lastRejectedAfterMs === undefined
		? ''
		: `, the last 429 ${figures.lastRejectedAfterMs} ms after the first answer`);

export interface RateLimitRow {
	part: string;
	ours: string;
	httpRequest: string;
	ratio: string;
	target: string;
}

export async function partF(): Promise<RateLimitRow[]> {
	console.log(
		`\n(f) ${ITEMS} items at defaults against each kind of gateway's rate limit (service ${LATENCY_MS} ms); ideal = items / allowed rate`,
	);
	const rows: RateLimitRow[] = [];
	const floorService = await startService({ args: ['--latency-ms', String(LATENCY_MS)] });
	try {
		const unlimited = agentContender(floorService.baseUrl, keys.default);
		// A first run warms n8n's AI nodes up (their first load takes seconds), as the agent's later runs are.
		await unlimited.run({ count: 20 });
		const started = performance.now();
		await unlimited.run({ count: ITEMS });
		const floor = (performance.now() - started) / 1000;
		console.log(
			`  the agent's floor: ${AGENT_LABEL} on a key without limit, ${floor.toFixed(2)} s (${((1000 * floor) / ITEMS).toFixed(0)} ms per item, the service ${LATENCY_MS} ms)`,
		);
	} finally {
		await floorService.stop();
	}
	const share = (figures: Figures) =>
		`${((100 * figures.rejected) / Math.max(1, figures.requests)).toFixed(1)}% 429`;
	for (const style of STYLES) {
		const service = await startService({
			args: [
				'--rate-limit',
				`limited=${style.limit}@${style.name}`,
				'--latency-ms',
				String(LATENCY_MS),
			],
		});
		try {
			const contenders = createContenders(service.baseUrl, keys.limited);
			console.log(`  ${style.name} ${style.limit}: ideal ${style.ideal.toFixed(2)} s`);
			const ours = await measure(service, contenders.ours, () =>
				contenders.ours.run({ count: ITEMS }),
			);
			console.log(line(CONTENDER_LABELS.ours, ours, style.ideal));
			if (style.cap !== undefined) {
				const unlimited = createContenders(service.baseUrl, keys.default).ours;
				const started = performance.now();
				await unlimited.run({ count: ITEMS, concurrency: style.cap });
				const floor = (performance.now() - started) / 1000;
				console.log(
					`  the floor: ours at Concurrency ${style.cap} on a key without limit, ${floor.toFixed(2)} s = ${(floor / style.ideal).toFixed(2)}x the ideal`,
				);
			}
			const agent = agentContender(service.baseUrl, keys.limited);
			const agentFigures = await measure(service, agent, () => agent.run({ count: ITEMS }));
			console.log(line(AGENT_LABEL, agentFigures, style.ideal));
			const http = await measure(service, contenders.httpRequest, () =>
				contenders.httpRequest.run({
					count: ITEMS,
					settings: { onError: 'continueRegularOutput' },
				}),
			);
			console.log(line(`${CONTENDER_LABELS.httpRequest} (Continue)`, http, style.ideal));
			rows.push({
				part: `(f) ${style.name} ${style.limit}`,
				ours: `${(ours.seconds / style.ideal).toFixed(2)}x ideal, ${ours.failed} failed, ${share(ours)}`,
				httpRequest: `${http.failed} failed, ${share(http)}`,
				ratio: `${(ours.seconds / style.ideal).toFixed(2)}x ideal`,
				target: style.target,
			});
			rows.push({
				part: `(f) ${style.name} ${style.limit}, ${AGENT_LABEL}`,
				ours: `${(agentFigures.seconds / style.ideal).toFixed(2)}x ideal, ${agentFigures.failed} failed, ${share(agentFigures)}`,
				httpRequest: '',
				ratio: `${(agentFigures.seconds / style.ideal).toFixed(2)}x ideal`,
				target: style.target,
			});
		} finally {
			await service.stop();
		}
	}
	return rows;
}
