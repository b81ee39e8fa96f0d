/**
 * /__redirect/<status>/<where>/<path>: the answer of a gateway that moved, for tests of what a client sends
 * where it is sent on. <status> is 301, 302, 303, 307 or 308; <where> is `same-origin` (Location: /<path>
 * on the host the request named) or `other-origin` (the same port under the other name of the loopback
 * address, `127.0.0.1` <-> `localhost`: another origin to a browser and to HTTP clients, the same service
 * here). No auth: the request is recorded, and what follows the redirect meets the /v1 checks as usual.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from './errors.mts';
import { sendJson } from './http-io.mts';

const statuses = new Set([301, 302, 303, 307, 308]);
const otherName: Record<string, string> = { '127.0.0.1': 'localhost', localhost: '127.0.0.1' };

/** `host` (`name:port`) under the loopback address's other name: another origin, the same service; undefined for other names. */
export function otherHost(host: string | undefined): string | undefined {
	const [hostName, port] = (host ?? '').split(':');
	const other = otherName[hostName];
	return other === undefined ? undefined : `${other}:${port}`;
}

export function redirect(req: IncomingMessage, res: ServerResponse, path: string): void {
	const found = /^\/__redirect\/(\d{3})\/(same-origin|other-origin)(\/.*)$/.exec(path);
	const status = Number(found?.[1]);
	const other = otherHost(req.headers.host);
	if (found === null || !statuses.has(status) || other === undefined) {
		throw notFound(req.method ?? '', path);
	}
	const query = (req.url ?? '').slice(path.length);
	const host = found[2] === 'same-origin' ? req.headers.host : other;
	const location = `http://${host}${found[3]}${query}`;
	sendJson(res, status, { moved_to: location }, { Location: location });
}
