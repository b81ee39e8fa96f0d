/** Reading n8n's streamed webhook response (one JSON chunk per line), for tests of streaming workflows. */

/** One read of the response body: when it came, the text deltas and error texts in it, and whether it held the end. */
export interface StreamedRead {
	at: number;
	deltas: string[];
	errors: string[];
	end: boolean;
}

/** Reads the whole streamed response, read by read. */
export async function readStreamed(response: Response): Promise<StreamedRead[]> {
	const reader = (response.body as ReadableStream<Uint8Array>).getReader();
	const decoder = new TextDecoder();
	const reads: StreamedRead[] = [];
	let buffered = '';
	for (;;) {
		const { value, done } = await reader.read();
		if (done) break;
		buffered += decoder.decode(value, { stream: true });
		const lines = buffered.split('\n');
		buffered = lines.pop() ?? '';
		const chunks = lines
			.filter((line) => line.trim() !== '')
			.map((line) => JSON.parse(line) as { type: string; content?: string });
		reads.push({
			at: Date.now(),
			deltas: chunks.filter((chunk) => chunk.type === 'item').map((chunk) => chunk.content ?? ''),
			errors: chunks.filter((chunk) => chunk.type === 'error').map((chunk) => chunk.content ?? ''),
			end: chunks.some((chunk) => chunk.type === 'end'),
		});
	}
	return reads;
}
