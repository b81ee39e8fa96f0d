/**
 * `ChatClient`: the one call both chat nodes make (context, connection, run and the node's words held
 * once; `reply(request, { onText, signal })` gives a whole or streamed reply with its retries and
 * rate-limit waits, structured output's rounds, and the Fallback Models in turn; the reply says the model
 * asked, `attempts`, the request id and cost). `chat-call.ts` is one request with its retries: each
 * attempt goes through `Run.send` and opens the reply (`transport/http.ts`) and reads it
 * (`reply/read-completion.ts`); a failure keeps the request id of its headers.
 */
import type { Answer } from './chat-call';
import { requestCompletion } from './chat-call';
import type { Connection } from './connection';
import type { ModelFailure } from './failures/errors';
import { ModelsFailed } from './failures/errors';
import type { NodeWords } from './failures/kind';
import { classify } from './failures/table';
import { describeProblem } from './problems/describe-problem';
import { notForwardedWarning } from './reply/not-forwarded';
import type { ChatRequest } from './request/input';
import type { Run } from './run/run';
import type { Ask, ChatReply } from './structured/structured-reply';
import { structuredReply } from './structured/structured-reply';
import type { Sender } from './transport/outgoing';
import type { Route } from './transport/route';
import { chooseRoute } from './transport/route';

/** A model of Fallback Models that failed before another answered, as the item shows it. */
export interface FailedAttempt {
	model: string;
	/** What went wrong, in the words the user sees. */
	error: string;
}

/** A reply, with the model that gave it and what the gateway said of its requests. */
export interface ModelReply extends ChatReply {
	/** The model ID the reply was asked of (the Model field's, or a fallback's). */
	model: string;
	/** The gateway's id of the (last) request, when it sent one. */
	requestId?: string;
	/** The cost the gateway reported, summed over the reply's requests; undefined when it reported none. */
	cost?: number;
	/** With Fallback Models set: each model that failed before this one answered (empty when the first did). */
	attempts?: FailedAttempt[];
	/** What the user should know of the reply: fields the gateway did not forward (none: undefined). */
	warnings?: string[];
}

/** The cost of several requests: the sum of those the gateway reported, or none when it reported none. */
function totalCost(answers: Answer[]): number | undefined {
	const costs = answers.map((answer) => answer.cost).filter((cost) => cost !== undefined);
	return costs.length === 0 ? undefined : costs.reduce((sum, cost) => sum + cost, 0);
}

/**
 * A request not sent because its model failed earlier in the run in a way that lasts: it carries that
 * failure (shared by the items, so it is not thrown itself: the retry loop writes the attempts on it).
 */
class FailedBefore extends Error {
	constructor(readonly failure: unknown) {
		super('The model failed earlier in this run');
		this.name = 'FailedBefore';
	}
}

/** How one reply is asked for: streamed text handed to `onText`; `signal`, the caller's own cancel. */
export interface ReplyOptions {
	onText?: (delta: string) => void;
	signal?: AbortSignal;
}

/**
 * How both nodes call the service: a client holds what every request of a run shares (the route to the
 * service, chosen once from n8n's context; the connection; the run, with its slots, pause, budget and stop; the node's words)
 * and gives one reply per request, from the request's model or, after a failure another model may not
 * share, from its Fallback Models in turn.
 */
export class ChatClient {
	constructor(
		private readonly context: Sender,
		readonly connection: Connection,
		readonly run: Run,
		readonly words: NodeWords,
	) {}

	/** The route every request of this client takes, chosen at its first request. */
	#route?: Promise<Route>;

	/**
	 * The reply to one request: whole, or streamed with each piece of text handed to `onText`, with the
	 * request's retries and rate-limit waits; a request that asks for JSON gets it parsed, checked and
	 * repaired. Each model gets its own retries, waits and Timeout; a model that began to stream its text
	 * is not replaced. When a fallback was tried and none answered, ModelsFailed names each model's failure.
	 */
	async reply(request: ChatRequest, { onText, signal }: ReplyOptions = {}): Promise<ModelReply> {
		const models = [request.body.model, ...request.fallbackModels];
		const ends = this.run.signal(signal);
		const failures: ModelFailure[] = [];
		for (let index = 0; ; index++) {
			const model = models[index];
			const last = index === models.length - 1;
			// While a fallback is left, a model's first request in the run goes alone until its answer is in.
			const asked = last ? undefined : await this.run.firstAsk(model, ends);
			// A model that failed earlier in the run in a way that lasts (it does not exist, the key cannot
			// reach it) is not asked again while a fallback is left: its failure stands for this request too.
			const known = last ? undefined : this.run.lastingFailure(model);
			if (known !== undefined) {
				asked?.();
				failures.push({ model, error: known });
				continue;
			}
			let began = false;
			const forward = onText && ((delta: string) => ((began = true), onText(delta)));
			try {
				const reply = await this.modelReply(
					{ ...request, body: { ...request.body, model } },
					ends,
					forward,
					// Checked again when a request has its slot: another item may have found the failure meanwhile.
					last ? undefined : () => this.throwLasting(model),
				);
				if (request.fallbackModels.length === 0) return reply;
				return { ...reply, attempts: failures.map((failure) => this.attempt(failure)) };
			} catch (thrown) {
				const error = thrown instanceof FailedBefore ? thrown.failure : thrown;
				const row = classify(error);
				// What kept the request from being sent (the Token Budget, a stop) is said alone.
				if (row.notSent === true) throw error;
				failures.push({ model, error });
				if (last || began || ends.aborted || !row.anotherModel) {
					throw failures.length === 1 ? error : new ModelsFailed(failures);
				}
			} finally {
				asked?.();
			}
		}
	}

	/** Throws the model's lasting failure from earlier in the run, if it had one: the request is not sent. */
	private throwLasting(model: string): void {
		const known = this.run.lastingFailure(model);
		if (known !== undefined) throw new FailedBefore(known);
	}

	/** One model's reply, with the id and cost of its requests. */
	private async modelReply(
		request: ChatRequest,
		signal: AbortSignal,
		onText?: (delta: string) => void,
		check?: () => void,
	): Promise<ModelReply> {
		const answers: Answer[] = [];
		const send: Ask = async (body, forward) => {
			this.#route ??= chooseRoute(this.context, this.connection);
			const answer = await requestCompletion(
				await this.#route,
				this.connection,
				{ ...request, body },
				{ run: this.run, signal, onText: forward, check },
			);
			answers.push(answer);
			return answer.completion;
		};
		const reply =
			request.structured === undefined
				? { completion: await send(request.body, onText) }
				: await structuredReply(request.body, request.structured, send, onText);
		const requestId = answers.map((answer) => answer.requestId).reduce((last, id) => id ?? last);
		return {
			...reply,
			model: request.body.model,
			requestId,
			cost: totalCost(answers),
			warnings: this.warnings(answers),
		};
	}

	/** The fields the gateway did not forward, said once on the reply and once a run above the output and in n8n's log. */
	private warnings(answers: Answer[]): string[] | undefined {
		const fields = [...new Set(answers.flatMap((answer) => answer.notForwarded ?? []))];
		if (fields.length === 0) return undefined;
		const warning = notForwardedWarning(fields, this.connection.baseUrl);
		this.run.tell(`not forwarded: ${fields.join(', ')}`, warning);
		return [warning];
	}

	private attempt({ model, error }: ModelFailure): FailedAttempt {
		return {
			model,
			error: describeProblem(error, { ...this.connection, model, words: this.words }).message,
		};
	}
}
