/**
 * GET /__cdn/videos/<id>.mp4: the storage new-api's `url` points at, on another origin (answers.mts), as a
 * vendor's CDN serves a signed URL: no key, and a request that carries an Authorization header is refused (403),
 * so that a test sees a client that sent the key where it must not. Recorded with the requests; a job not
 * completed is not there (404). The key is refused before anything else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, notFound } from '../errors.mts';
import { stateOf, type VideoJobs } from './jobs.mts';
import { sendVideo } from './content.mts';

const PATH = /^\/__cdn\/videos\/([\w-]+)\.mp4$/;

const keySent = new ApiError({
	status: 403,
	message:
		'This storage refuses requests that carry an Authorization header: the signed URL is its own access. Send no key here.',
	type: 'access_denied',
	code: 'authorization_not_allowed',
});

export const isCdnPath = (path: string) => path.startsWith('/__cdn/');

export function serveCdnVideo(
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	jobs: VideoJobs,
): void {
	if (req.headers.authorization !== undefined) throw keySent;
	const id = PATH.exec(path)?.[1];
	const job = id === undefined ? undefined : jobs.byId(id);
	if (req.method !== 'GET' || job === undefined || stateOf(job).phase !== 'completed') {
		throw notFound(req.method ?? '', path);
	}
	sendVideo(res, job, 'video/mp4');
}
