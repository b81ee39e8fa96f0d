import { withRequestId } from './billing';
import { parseCompletion, requireFinishReason } from './completion';
import { readEvents } from './events';
import type { StreamAssembler } from './stream';
import { createStreamAssembler } from './stream';
import { IncompleteReplyError, NetworkError } from '../failures/errors';
import type { Completion } from '../protocol';
import type { OpenReply } from '../transport/http';
import type { ByteStream } from '../transport/read-stream';
import { readWhole } from '../transport/read-stream';

/**
 * A stream that broke after the service began to answer: the connection was lost, or nothing more came
 * within Timeout. The reply is incomplete; the text received is kept. It is not sent again: the text may
 * already be in a chat, and the service has billed it.
 */
function brokenStream(error: unknown, assembler: StreamAssembler): unknown {
	if (!(error instanceof NetworkError) || error.code === 'ERR_CANCELED') return error;
	const { content } = assembler.progress();
	const characters = `${content.length} characters of the reply`;
	if (error.code === 'ETIMEDOUT') {
		return new IncompleteReplyError(
			`The stream stopped: nothing more came within the Timeout of ${error.timeoutMs} ms, after ${characters}`,
			content,
			'silence',
		);
	}
	return new IncompleteReplyError(
		`The connection broke while the reply was streaming, after ${characters}: the reply is incomplete`,
		content,
		'connection',
	);
}

/**
 * Reads the reply to a chat request into a Completion, the one reader of whole and streamed replies. A
 * streamed 2xx reply is assembled from its Server-Sent Events as they come, each piece of text handed to
 * `onText`; anything else (an error status, a reply not streamed, a service that ignored `stream`: a 2xx
 * JSON body) is read whole. An error status throws the ServiceError its body describes; a reply that stops
 * without saying why, or a stream that breaks off (connection lost, or silent for the Timeout) or carries
 * an error, throws; the reading's NetworkError (ETIMEDOUT, ERR_CANCELED, ...) otherwise. A failure of the
 * service or of its reply keeps the request id its headers named.
 */
export async function readCompletion(
	reply: OpenReply,
	streamed: boolean,
	onText?: (delta: string) => void,
): Promise<Completion> {
	try {
		return await read(reply, streamed, onText);
	} catch (error) {
		throw withRequestId(error, reply.headers);
	}
}

async function read(
	reply: OpenReply,
	streamed: boolean,
	onText?: (delta: string) => void,
): Promise<Completion> {
	const { status, headers, body, limits } = reply;
	const assembler =
		streamed && status >= 200 && status < 300
			? createStreamAssembler({ status, onText })
			: undefined;
	const text =
		assembler === undefined
			? await readWhole(body, limits)
			: await readEvents(
					// A streamed request is opened with `stream`: n8n hands its body over as it comes.
					body as ByteStream,
					limits,
					/\bjson\b/i.test(headers['content-type'] ?? ''),
					assembler,
				).catch((error: unknown) => Promise.reject(brokenStream(error, assembler)));
	return text === undefined
		? (assembler as StreamAssembler).finish()
		: requireFinishReason(parseCompletion({ status, headers, text }));
}
