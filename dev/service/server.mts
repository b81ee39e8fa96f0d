/**
 * The HTTP service: /v1 (recorded, authenticated, rate-limited, optionally delayed, then routed),
 * the test-control endpoints under /__control, the fixture files under /__assets, and the redirects of
 * /__redirect, the images answered as URLs under /__images and the videos of /__cdn (recorded; no auth).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { serveAsset } from './assets.mts';
import { authenticate } from './auth.mts';
import { chatCompletion } from './chat.mts';
import { embeddings } from './embeddings.mts';
import type { ServiceConfig } from './config.mts';
import { ApiError, notFound } from './errors.mts';
import { readBody, sendError, sendJson, sendText } from './http-io.mts';
import { ImageStore } from './image-store.mts';
import { isLargeImage, serveLargeImage } from './large-image.mts';
import { KNOB_HEADER, withHeaderKnobs } from './knob-header.mts';
import { imageEdits, imageGenerations } from './images.mts';
import { balanceReply, ROOT_BALANCE_PATHS } from './balance.mts';
import { KnobCounts } from './knob-counts.mts';
import { modelRouteReply, modelsReply, ROOT_MODEL_PATHS } from './model-shapes.mts';
import { PromptCache } from './prompt-cache.mts';
import { RateLimiter } from './rate-limit.mts';
import { redirect } from './redirect.mts';
import { rerank } from './rerank.mts';
import { cutOff, RequestLog } from './request-log.mts';
import { speech } from './speech.mts';
import { transcriptions } from './transcriptions.mts';
import { isCdnPath, serveCdnVideo } from './video/cdn.mts';
import { VideoJobs } from './video/jobs.mts';
import { isVideoPath, videos } from './videos.mts';

const internalError = new ApiError({
	status: 500,
	message: 'Internal server error',
	type: 'server_error',
	code: 'internal_error',
});

export interface ServiceOptions {
	config: ServiceConfig;
	/** Added to every /v1 request that passes authentication and the rate limit (the model's time). */
	latencyMs: number;
	/** Added to every embeddings request per input it carries (the embedding model's time). */
	embeddingMsPerInput?: number;
	/** Called with one line per finished request (--verbose). */
	log?: (line: string) => void;
}

export function createService(options: ServiceOptions): Server {
	const requestLog = new RequestLog();
	const rateLimiter = new RateLimiter(
		options.config.keys.values(),
		() => performance.timeOrigin + performance.now(),
	);
	const counts = new KnobCounts();
	const promptCache = new PromptCache();
	const images = new ImageStore();
	const videoJobs = new VideoJobs();
	/** The connections open now; those marked `closing` are closed by the service while idle (see idle-close). */
	const open = new Set<Socket>();
	const closing = new WeakSet<Socket>();

	async function v1(
		req: IncomingMessage,
		res: ServerResponse,
		path: string,
		body: Buffer,
	): Promise<void> {
		const query = new URL(req.url ?? '/', 'http://local').searchParams;
		requestLog.record(req, res, body);
		const key = authenticate(req.headers.authorization, options.config.keys, Date.now());
		// A gateway refuses at once; an admitted request is in flight until its answer is written (or cut off).
		const admission = rateLimiter.admit(key);
		res.once('finish', admission.release);
		res.once('close', admission.release);
		for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
		if (options.latencyMs > 0) await delay(options.latencyMs);
		const route = `${req.method} ${path}`;
		const rawBody = withHeaderKnobs(req.headers[KNOB_HEADER], body.toString('utf8'));
		const contentType = req.headers['content-type'];
		const context = { key, config: options.config, counts, promptCache };
		const answer =
			balanceReply(req, route, key) ?? modelRouteReply(req, route, options.config, key);
		if (answer !== undefined) {
			sendJson(res, 200, answer);
		} else if (route === 'GET /v1/models') {
			sendJson(res, 200, modelsReply(req, options.config, key, query));
		} else if (route === 'POST /v1/chat/completions') {
			await chatCompletion(req, res, rawBody, context);
		} else if (route === 'POST /v1/embeddings') {
			const msPerInput = options.embeddingMsPerInput ?? 0;
			await embeddings(res, rawBody, { ...context, msPerInput });
		} else if (route === 'POST /v1/rerank') {
			await rerank(res, rawBody, context);
		} else if (route === 'POST /v1/images/generations') {
			await imageGenerations(res, rawBody, { ...context, store: images, host: req.headers.host });
		} else if (route === 'POST /v1/images/edits') {
			await imageEdits(res, contentType, body, {
				...context,
				store: images,
				host: req.headers.host,
			});
		} else if (route === 'POST /v1/audio/transcriptions') {
			await transcriptions(res, 'transcribe', contentType, body, context);
		} else if (route === 'POST /v1/audio/translations') {
			await transcriptions(res, 'translate', contentType, body, context);
		} else if (route === 'POST /v1/audio/speech') {
			await speech(res, rawBody, context);
		} else if (isVideoPath(path)) {
			await videos(
				req,
				res,
				path,
				{ raw: body, text: rawBody },
				{
					...context,
					jobs: videoJobs,
					host: req.headers.host,
				},
			);
		} else {
			throw notFound(req.method ?? '', path);
		}
	}

	function control(req: IncomingMessage, res: ServerResponse, path: string): void {
		const route = `${req.method} ${path}`;
		if (route === 'GET /__control/requests') {
			sendJson(res, 200, requestLog.entries());
		} else if (route === 'GET /__control/videos') {
			sendJson(res, 200, videoJobs.report());
		} else if (route === 'GET /__control/traffic') {
			sendJson(res, 200, rateLimiter.reports());
		} else if (route === 'POST /__control/idle-close') {
			// Every connection open now that carried a recorded request (a client's, not a test's control
			// calls) is closed as the client sends its next request on it: what a client meets when a server
			// closes a kept connection while idle, just as it is reused.
			for (const socket of open) if (requestLog.carried(socket)) closing.add(socket);
			sendText(res, 204, '', {});
		} else if (route === 'DELETE /__control/requests') {
			requestLog.clear();
			counts.clear();
			promptCache.clear();
			rateLimiter.clear();
			videoJobs.clear();
			sendText(res, 204, '', {});
		} else {
			throw notFound(req.method ?? '', path);
		}
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		if (closing.has(req.socket)) {
			req.socket.destroy();
			return;
		}
		const started = Date.now();
		if (options.log !== undefined) {
			const log = options.log;
			res.once('finish', () =>
				log(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started}ms`),
			);
		}
		try {
			const body = await readBody(req);
			const path = (req.url ?? '/').split('?')[0];
			if (
				path === '/v1' ||
				path.startsWith('/v1/') ||
				ROOT_BALANCE_PATHS.includes(path) ||
				ROOT_MODEL_PATHS.includes(path)
			) {
				await v1(req, res, path, body);
			} else if (path.startsWith('/__control/')) control(req, res, path);
			else if (path.startsWith('/__assets/')) await serveAsset(req, res, path);
			else if (path.startsWith('/__redirect/')) {
				requestLog.record(req, res, body);
				redirect(req, res, path);
			} else if (isLargeImage(path)) {
				requestLog.record(req, res, body);
				serveLargeImage(req, res, path);
			} else if (path.startsWith('/__images/')) {
				requestLog.record(req, res, body);
				images.serve(req, res, path);
			} else if (isCdnPath(path)) {
				requestLog.record(req, res, body);
				serveCdnVideo(req, res, path, videoJobs);
			} else throw notFound(req.method ?? '', path);
		} catch (error) {
			if (error instanceof ApiError) {
				sendError(res, error);
				return;
			}
			console.error(error);
			if (res.headersSent) cutOff(res);
			else sendError(res, internalError);
		}
	}

	const server = createServer((req, res) => void handle(req, res));
	server.on('connection', (socket: Socket) => {
		open.add(socket);
		socket.once('close', () => open.delete(socket));
	});
	return server;
}
