import { listModels } from './list';
import type { Connection } from '../connection';
import { classify } from '../failures/table';
import type { Sender } from '../transport/outgoing';

/**
 * OpenRouter's variants: a listed model ID with one of these after a colon (`vendor/model:online`) is served
 * though only the model itself is listed.
 */
const VARIANTS = ['online', 'nitro', 'floor', 'exacto', 'free', 'extended', 'thinking'];

/** The model IDs a key may call, as its list gives them: IDs, and patterns with `*` (LiteLLM's `openai/*` routes). */
export class KnownModels {
	private readonly ids: Set<string>;
	private readonly patterns: RegExp[];

	constructor(listed: readonly string[]) {
		this.ids = new Set(listed);
		this.patterns = listed
			.filter((id) => id.includes('*'))
			.map((id) => new RegExp(`^${id.split('*').map(escaped).join('.*')}$`));
	}

	/** How many entries the list has. */
	get size(): number {
		return this.ids.size;
	}

	/** Whether an entry covers the ID: the ID itself, a listed model with a variant suffix, or a pattern. */
	covers(id: string): boolean {
		if (this.ids.has(id)) return true;
		const colon = id.lastIndexOf(':');
		if (colon > 0 && VARIANTS.includes(id.slice(colon + 1)) && this.ids.has(id.slice(0, colon))) {
			return true;
		}
		return this.patterns.some((pattern) => pattern.test(id));
	}
}

function escaped(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The models the key may call, for checking a batch before it is sent; undefined when the service does
 * not list them (an error, no such endpoint, a list that is not one, an empty list): then nothing is
 * checked and the requests say what is wrong, as before. An answer that holds for every request of the key
 * (a rejected key, an empty balance) is thrown: the batch is not sent.
 */
export async function knownModels(
	context: Sender,
	connection: Connection,
	cancel?: AbortSignal,
): Promise<KnownModels | undefined> {
	const listed = await listModels(context, connection, cancel).then(
		(models) => ({ models }),
		(failure: unknown) => ({ failure }),
	);
	if ('models' in listed) {
		const { models } = listed;
		return models.length === 0 ? undefined : new KnownModels(models.map((model) => model.id));
	}
	if (classify(listed.failure).lasting === 'key') throw listed.failure;
	return undefined;
}
