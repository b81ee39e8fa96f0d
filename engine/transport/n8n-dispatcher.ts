import type { supplyModel } from '@n8n/ai-node-sdk';
import type { IExecuteFunctions, NodeEgressFilter } from 'n8n-workflow';

/** An undici dispatcher (the type global `fetch` names), with its own `request`. */
export type Dispatcher = NonNullable<RequestInit['dispatcher']>;

/** What may build a dispatcher: a context with n8n's egress filter (n8n 2.x; the SDK's needs it too). */
export type EgressContext = {
	helpers: Partial<Pick<IExecuteFunctions['helpers'], 'getSecureEgressFilter'>>;
};

/** The SDK's `supplyModel`, or undefined on an n8n without the SDK (1.x, 2.x before 2.16): loaded once. */
let sdkSupplyModel: Promise<typeof supplyModel | undefined> | undefined;

function loadSupplyModel(): Promise<typeof supplyModel | undefined> {
	sdkSupplyModel ??= import('@n8n/ai-node-sdk').then(
		(sdk: { supplyModel?: typeof supplyModel }) => sdk.supplyModel,
		() => undefined,
	);
	return sdkSupplyModel;
}

/** A value that can send requests: undici's Dispatcher interface, as far as it is used here. */
function isDispatcher(value: unknown): value is Dispatcher {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { dispatch?: unknown }).dispatch === 'function' &&
		typeof (value as { request?: unknown }).request === 'function'
	);
}

/**
 * The dispatcher n8n's own OpenAI client gets for `origin` (proxy from the environment as n8n decides it
 * for that address, n8n's SSRF interceptor on every request and redirect hop, n8n's certificate trust):
 * `supplyModel` of the SDK builds it into the model it returns, where it is not a public field. Undefined
 * when the SDK or the field is not there (or not a dispatcher): then n8n's request helper sends.
 *
 * The model itself is never used: it gets a context with nothing but the egress filter (so it keeps no
 * execution alive) and a placeholder key. Its own timeouts are left at n8n's AI maximum; the request's
 * Timeout is watched by the transport.
 */
async function buildDispatcher(
	origin: string,
	egress: NodeEgressFilter,
): Promise<Dispatcher | undefined> {
	const supply = await loadSupplyModel();
	if (supply === undefined) return undefined;
	try {
		const context = { helpers: { getSecureEgressFilter: () => egress } };
		const { response } = supply(context as unknown as Parameters<typeof supplyModel>[0], {
			type: 'openai',
			baseUrl: origin,
			apiKey: 'not-sent',
			model: 'not-used',
		});
		const dispatcher = (response as { clientConfig?: { fetchOptions?: { dispatcher?: unknown } } })
			.clientConfig?.fetchOptions?.dispatcher;
		return isDispatcher(dispatcher) ? dispatcher : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Dispatchers kept for the whole process, per egress filter (n8n gives one object per SSRF policy) and
 * origin: connections stay open across items, executions and agent turns.
 */
const kept = new WeakMap<NodeEgressFilter, Map<string, Promise<Dispatcher | undefined>>>();

/**
 * The dispatcher that carries requests to `url`'s origin, built once per origin and egress filter;
 * undefined where n8n's request helper must send (no egress filter on the context, no SDK, no dispatcher
 * in the SDK's model).
 */
export async function n8nDispatcher(
	context: EgressContext,
	url: string,
): Promise<Dispatcher | undefined> {
	const egress = context.helpers.getSecureEgressFilter?.();
	if (egress === undefined) return undefined;
	let byOrigin = kept.get(egress);
	if (byOrigin === undefined) {
		byOrigin = new Map();
		kept.set(egress, byOrigin);
	}
	const origin = new URL(url).origin;
	let dispatcher = byOrigin.get(origin);
	if (dispatcher === undefined) {
		dispatcher = buildDispatcher(origin, egress);
		byOrigin.set(origin, dispatcher);
	}
	return await dispatcher;
}
