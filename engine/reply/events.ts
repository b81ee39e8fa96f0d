import type { StreamAssembler } from './stream';
import type { ByteStream, ReadLimits } from '../transport/read-stream';
import { readStream } from '../transport/read-stream';

/**
 * Reads a 2xx body into the assembler, or as a whole when it is JSON (a service that ignored `stream`,
 * or a gateway's error): labelled JSON, or starting with `{`, which an event stream never does (it
 * starts with a field name, a comment or a blank line). Returns the JSON text, undefined for a stream.
 */
export async function readEvents(
	body: ByteStream,
	limits: ReadLimits,
	labelledJson: boolean,
	assembler: StreamAssembler,
): Promise<string | undefined> {
	const pieces: string[] = [];
	let isJson: boolean | undefined = labelledJson || undefined;
	await readStream(body, limits, (text) => {
		if (isJson === false) return assembler.feed(text);
		pieces.push(text);
		if (isJson) return;
		const start = pieces.join('').trimStart();
		if (start === '') return;
		isJson = start.startsWith('{');
		if (!isJson) assembler.feed(pieces.splice(0).join(''));
	});
	return isJson ? pieces.join('') : undefined;
}
