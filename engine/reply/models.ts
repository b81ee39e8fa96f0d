import { readBody } from './body';
import { serviceErrorFrom } from './error-body';
import { ReplyError } from '../failures/errors';
import type { HttpReply } from '../transport/outgoing';

export interface ModelEntry {
	id: string;
	ownedBy?: string;
}

/** A model of `GET /models` as the service gave it: its ID, and whatever fields the gateway adds. */
export type ModelObject = { id: string } & Record<string, unknown>;

/** Reads `GET /models` (`{ data: [{ id, ... }] }`), sorted by ID; error replies become a ServiceError. */
export function modelObjects(reply: HttpReply): ModelObject[] {
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply);
	const body = readBody(reply.text);
	const data = (body.json as { data?: unknown } | null | undefined)?.data;
	if (body.kind !== 'json' || !Array.isArray(data)) {
		if (body.kind === 'json' && (body.json as { error?: unknown } | null)?.error)
			throw serviceErrorFrom(reply);
		throw new ReplyError(`The model list at /models is not a list of models: ${body.summary}`);
	}
	return data
		.filter((entry): entry is ModelObject => typeof entry?.id === 'string')
		.sort((a, b) => a.id.localeCompare(b.id));
}

/** The ID of each model of `GET /models` and who owns it. */
export function parseModels(reply: HttpReply): ModelEntry[] {
	return modelObjects(reply).map((entry) => ({
		id: entry.id,
		ownedBy: typeof entry.owned_by === 'string' ? entry.owned_by : undefined,
	}));
}
