import type { AnswerOf, InputOf, MediaOperation } from './operations';
import { OPERATIONS } from './operations';
import type { MediaInput, MediaOperationRow } from './operations/operation';
import type { Connection } from '../connection';
import { Poster } from '../post';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';

/**
 * The image and audio operations for the media node: one request per item, through the run like every request
 * (its slots, the key's pauses and pacing, the request's retries), on the route chosen at the first. Each
 * request's body is made by the operation's row once the run admits it, so an upload's bytes are held only while
 * in flight; its reply is read by the row, a failure naming the operation, and what the row tells of the answer
 * is said once a run above the node's output and in n8n's log.
 */
export class MediaClient {
	readonly #poster: Poster;
	readonly #run: Run;

	constructor(context: Sender, connection: Connection, run: Run) {
		this.#poster = new Poster(context, connection, run);
		this.#run = run;
	}

	/** What `operation` answers for `input`, at the path of the OpenAI shape every gateway serves. */
	async call<N extends MediaOperation>(operation: N, input: InputOf<N>): Promise<AnswerOf<N>> {
		const row = OPERATIONS[operation] as unknown as MediaOperationRow<MediaInput, AnswerOf<N>>;
		const path = row.paths.openai;
		const at = { ...row.endpoint, path };
		const answer = await this.#poster.post(async () => ({
			path,
			request: input.request,
			...(await row.body(input)),
			read: (reply) => row.read(reply, input, at),
			tokensOf: () => undefined,
		}));
		const notice = row.notice?.(answer, input);
		if (notice !== undefined) this.#run.tell(notice.topic, notice.message);
		return answer;
	}
}
