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
