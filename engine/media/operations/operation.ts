import type { ItemFile, MediaRequest } from '../request';
import type { Endpoint } from '../../failures/errors';
import type { ModelKind } from '../../models/gateway-tags';
import type { OptionSpec } from '../../options/table';
import type { RawBody, WholeReply } from '../../transport/outgoing';

/**
 * An image or audio operation as one row: its endpoint as failures name it, its path per gateway shape, its
 * Options and the wire fields it sets itself, its body (made once the run admits the request), its reader, and
 * what it tells of an answer that is not wrong but not what was asked (its notice).
 * The tables of the media node (paths, Options, own fields) are made from the rows (`operations/index.ts`).
 */

/** A request's body: JSON, or a multipart form made whole. */
export type MediaBody = { body: object } | { raw: RawBody };

/** The gateway shapes an operation is served in: today every gateway serves OpenAI's. */
export type GatewayShape = 'openai';

/**
 * A file of the item, read only once its request is admitted: `field` is the node's field it was named in and
 * `source` how errors name it (`binary property "data" (talk.wav)`); `size` in bytes, when known before reading.
 */
export interface ItemUpload {
	field: string;
	source: string;
	size?: number;
	read(): Promise<ItemFile>;
}

/** What every operation's input carries: the item's checked request (Model, Options, Extra Body). */
export interface MediaInput {
	request: MediaRequest;
}

/** What the user should know of an answer that is not wrong: told once a run for its `topic`. */
export interface Notice {
	topic: string;
	message: string;
}

export interface MediaOperationRow<Input extends MediaInput, Answer> {
	/** The endpoint as a ServiceError names it (the path added when called). */
	endpoint: Omit<Endpoint, 'path'>;
	/** The kind of model it calls: the Model list shows those (and those whose kind the gateway does not tell). */
	models: ModelKind;
	/** The path per gateway shape, under the Base URL. */
	paths: Record<GatewayShape, string>;
	/** Its own Options, in the order the UI lists them. */
	options: readonly OptionSpec[];
	/** The wire fields it sets itself, which Options and Extra Body may not set. */
	ownFields: readonly string[];
	/** Its body, once the run admits the request: files are read only now. */
	body(input: Input): Promise<MediaBody>;
	/** Its answer in the reply; an error is the ServiceError the service said, naming `at`. */
	read(reply: WholeReply, input: Input, at: Endpoint): Answer;
	/** What to tell of an answer read (above the node's output and in n8n's log), when anything. */
	notice?(answer: Answer, input: Input): Notice | undefined;
}
