/** The endpoint a ServiceError names, by the path an operation calls: each image and audio operation's, rerank's. */
import type { Endpoint } from '../../engine/failures/errors';
import { OPERATIONS } from '../../engine/media/operations';
import { RERANK_ENDPOINT } from '../../engine/rerank/read-reply';

export function endpointAt(path: string): Endpoint {
	if (path === RERANK_ENDPOINT.path) return RERANK_ENDPOINT;
	const row = Object.values(OPERATIONS).find((operation) => operation.paths.openai === path);
	if (row === undefined) throw new Error(`no operation calls ${path}`);
	return { ...row.endpoint, path };
}
