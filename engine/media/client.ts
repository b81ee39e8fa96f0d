import { mediaRequest } from './media-request';
import type { AnswerOf, InputOf, MediaOperation } from './operations';
import { callOf, MEDIA_OPTIONS, modelKindOf, OPERATIONS } from './operations';
import type { MediaInput, MediaOperationRow } from './operations/operation';
import { downloadedType, IMAGE_HEAD_BYTES } from './read-images';
import type { MediaType } from './sniff';
import { sniffImage } from './sniff';
import { VideoJobs } from './video/job';
import { VIDEO_OPTIONS, videoSettings } from './video/options';
import { videoApiFor } from './video/shapes';
import type { Connection } from '../connection';
import type { EndpointRequest } from '../request/endpoint';
import { Requests } from '../requests';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';
import type { BinarySource } from '../transport/read-stream';
import { peek } from '../transport/read-stream';

/**
 * The image and audio operations for the media node: one request per item, through the run like every request
 * (its slots, the key's pauses and pacing, the request's retries), on the route chosen at the first. Each
 * request's body is made by the operation's row once the run admits it, so an upload's bytes are held only while
 * in flight; its reply is read by the row, a failure naming the operation, and what the row tells of the answer
 * is said once a run above the node's output and in n8n's log. The class also says what the node
 * shows and checks of an operation before any client is made: what it calls, the kind of model its Model list
 * shows, its Options, an item's request.
 */
export class MediaClient {
	/** What an operation calls, as the node's Operation list says it: `POST /audio/speech`. */
	static readonly callOf = callOf;
	/** The kind of model an operation calls, the one its Model list shows. */
	static readonly modelKindOf = modelKindOf;
	/** The own Options of each operation, in the order the UI lists them. */
	static readonly OPTIONS = MEDIA_OPTIONS;
	/** An item's request for an operation, its Model and Options checked before anything is sent. */
	static readonly request = mediaRequest;
	/** The video operations' Options, an item's checked, and the shape a Video API choice means on a Base URL. */
	static readonly video = { OPTIONS: VIDEO_OPTIONS, settings: videoSettings, apiFor: videoApiFor };

	/** The video jobs: submit once, poll through the run, download as a stream (`video/job.ts`). */
	readonly video: VideoJobs;

	readonly #requests: Requests;
	readonly #run: Run;

	constructor(context: Sender, connection: Connection, run: Run) {
		this.#requests = new Requests(context, connection, run);
		this.#run = run;
		this.video = new VideoJobs(this.#requests);
	}

	/** What `operation` answers for `input`, at the path of the OpenAI shape every gateway serves. */
	async call<N extends MediaOperation>(operation: N, input: InputOf<N>): Promise<AnswerOf<N>> {
		const row = OPERATIONS[operation] as unknown as MediaOperationRow<MediaInput, AnswerOf<N>>;
		const path = row.paths.openai;
		const at = { ...row.endpoint, path };
		const answer = await this.#requests.post(async () => ({
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

	/**
	 * The image at `url` (a reply's `url`) downloaded through the run (`Requests.download`: the key only to the
	 * Base URL's origin), typed by its first bytes, its body a stream from its start, never held whole here.
	 */
	async downloadImage(
		url: string,
		request: Pick<EndpointRequest, 'timeout' | 'retry'>,
	): Promise<{ source: BinarySource; type: MediaType }> {
		const { head, source } = await peek(
			await this.#requests.download(url, request),
			IMAGE_HEAD_BYTES,
		);
		// Bytes of no image fail the item: the rest of them is not read.
		if (sniffImage(head) === undefined && !Buffer.isBuffer(source)) source.destroy();
		return { source, type: downloadedType(head, url) };
	}
}
