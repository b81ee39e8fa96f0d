import type { ReadBody } from './body';
import { readBody } from './body';
import { errorInJson, serviceErrorFrom } from './error-body';
import type { ServiceError } from '../failures/errors';
import type { HttpReply } from '../transport/outgoing';
import { isPlainObject } from '../values';

/** A sub-node's reply read: the list it holds (`data` of embeddings, `results` of rerank), its object and body. */
export interface ListReply {
	/** Undefined when the body holds no list under the field asked for. */
	list?: unknown[];
	/** The body's JSON object (undefined when it is not one), for the fields beside the list. */
	json?: Record<string, unknown>;
	body: ReadBody;
}

/**
 * Reads the reply of a sub-node's request, whose answer is a list under `field`. An error status, or an
 * error object inside a 2xx, is the ServiceError it says (marked with `endpoint` where the failure table
 * reads that endpoint's failures apart); a body without the list is for the caller to name.
 */
export function listInReply(
	reply: HttpReply,
	field: string,
	endpoint?: ServiceError['endpoint'],
): ListReply {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body, endpoint);
	const json = isPlainObject(body.json) ? body.json : undefined;
	const list = json?.[field];
	if (Array.isArray(list)) return { list, json, body };
	if (json?.error !== undefined && errorInJson(json)) throw serviceErrorFrom(reply, body, endpoint);
	return { json, body };
}

/**
 * What a 2xx body without the list was, in words, `what` naming the list (`a list of results`): `answered 200
 * with an empty body instead of ...`, `... without ...: <the body>`, `... with an HTML page instead of ...`.
 */
export function withoutList(status: number, body: ReadBody, what: string): string {
	if (body.kind === 'empty') return `answered ${status} with an empty body instead of ${what}`;
	const was =
		body.kind === 'json'
			? `without ${what}`
			: body.kind === 'html'
				? `with an HTML page instead of ${what}`
				: `with text that is not JSON instead of ${what}`;
	return `answered ${status} ${was}: ${body.summary}`;
}
