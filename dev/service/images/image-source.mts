/**
 * The image of an `image_url` part: a base64 data URI, or an http(s) URL on this machine
 * (127.0.0.1 or localhost, e.g. the fixtures under /__assets/); the local service fetches nothing else.
 */
import { readDataUri } from '../data-uri.mts';
import { ApiError } from '../errors.mts';
import { readImageHeader, type ImageInfo } from './image-header.mts';

const fetchTimeoutMs = 10_000;
const localHosts = ['127.0.0.1', 'localhost'];
const supported = 'PNG, JPEG, GIF or WEBP';

function badImage(
	message: string,
	param: string,
	code: 'invalid_image' | 'invalid_image_url',
): ApiError {
	return new ApiError({
		status: 400,
		message: `${param}: ${message}`,
		type: 'invalid_request_error',
		param,
		code,
	});
}

/** The format and size of the image at `url`; `at` names the content part in errors. */
export async function loadImage(url: string, at: string): Promise<ImageInfo> {
	if (url.startsWith('data:')) {
		return imageOf(decodeDataUri(url, at), 'the data is not a supported image', at);
	}
	const bytes = await fetchLocal(url, at);
	return imageOf(bytes, `the data at ${url} is not a supported image`, at);
}

function imageOf(bytes: Buffer, problem: string, at: string): ImageInfo {
	const info = readImageHeader(bytes);
	if (info === undefined) throw badImage(`${problem} (${supported})`, at, 'invalid_image');
	return info;
}

function decodeDataUri(url: string, at: string): Buffer {
	const read = readDataUri(url);
	if ('problem' in read) throw badImage(read.problem, at, 'invalid_image');
	return read.bytes;
}

async function fetchLocal(url: string, at: string): Promise<Buffer> {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw badImage(`'${url}' is neither a URL nor a data URI`, at, 'invalid_image_url');
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		throw badImage(
			`image URLs must be http(s) URLs or data URIs, got ${parsed.protocol}`,
			at,
			'invalid_image_url',
		);
	}
	if (!localHosts.includes(parsed.hostname)) {
		throw badImage(
			`cannot fetch images from ${parsed.host} in the local service (only from ${localHosts.join(' and ')}; or send a data URI)`,
			at,
			'invalid_image_url',
		);
	}
	let response: Response;
	try {
		response = await fetch(parsed, {
			redirect: 'error',
			signal: AbortSignal.timeout(fetchTimeoutMs),
		});
	} catch (error) {
		const { message, cause } = error as Error;
		const reason = cause instanceof Error ? `${message} (${cause.message})` : message;
		throw badImage(`could not fetch ${url}: ${reason}`, at, 'invalid_image_url');
	}
	if (!response.ok) {
		await response.body?.cancel();
		throw badImage(`fetching ${url} answered HTTP ${response.status}`, at, 'invalid_image_url');
	}
	return Buffer.from(await response.arrayBuffer());
}
