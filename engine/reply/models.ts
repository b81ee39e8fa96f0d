import { readBody } from './body';
import { serviceErrorFrom } from './error-body';
import { ReplyError } from '../failures/errors';
import type { HttpReply } from '../transport/outgoing';

export interface ModelEntry {
	id: string;
	ownedBy?: string;
}

/** Reads `GET /models` (`{ data: [{ id, owned_by }] }`); error replies become a ServiceError. */
export function parseModels(reply: HttpReply): ModelEntry[] {
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply);
	const body = readBody(reply.text);
	const data = (body.json as { data?: unknown } | null | undefined)?.data;
	if (body.kind !== 'json' || !Array.isArray(data)) {
		if (body.kind === 'json' && (body.json as { error?: unknown } | null)?.error)
			throw serviceErrorFrom(reply);
		throw new ReplyError(`The model list at /models is not a list of models: ${body.summary}`);
	}
	return data
		.filter((entry): entry is { id: string; owned_by?: unknown } => typeof entry?.id === 'string')
		.map((entry) => ({
			id: entry.id,
			ownedBy: typeof entry.owned_by === 'string' ? entry.owned_by : undefined,
		}))
		.sort((a, b) => a.id.localeCompare(b.id));
}
