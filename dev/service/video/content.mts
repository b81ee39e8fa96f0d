/**
 * A finished job's download: its MP4 (mp4.mts), written as the client reads it (padded-stream.mts), so a
 * video of `content_bytes` is never held whole; or, with the `download` knob, a web page or JSON where the
 * video should be, answered 200 as a misconfigured gateway does.
 */
import type { ServerResponse } from 'node:http';
import { consolePage } from '../html-pages.mts';
import { sendJson, sendText } from '../http-io.mts';
import { writePadded } from '../padded-stream.mts';
import type { VideoJob } from './jobs.mts';
import { mp4 } from './mp4.mts';

/** Sends `job`'s video labelled `contentType` (gateways label it application/octet-stream) and counts the download. */
export function sendVideo(res: ServerResponse, job: VideoJob, contentType: string): void {
	job.downloads += 1;
	if (job.knobs.download === 'html') {
		sendText(res, 200, consolePage, { 'Content-Type': 'text/html; charset=utf-8' });
		return;
	}
	if (job.knobs.download === 'json') {
		sendJson(res, 200, { id: job.id, object: 'video', status: 'completed' });
		return;
	}
	const { head, size } = mp4({ id: job.id, ...job.facts }, job.seconds, job.knobs.contentBytes);
	res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': String(size) });
	writePadded(res, head, size);
}
