import type { ServiceError } from './errors';
import { mayBeExtraHeader } from '../own-headers';

/**
 * What a service's error says beyond its status, read from its code, type and words: the signs the
 * failure table (`table.ts`) tells its kinds apart by.
 */

/** `error.code` or `error.type` values that say the account is out of balance or budget. */
const QUOTA_LABELS = [
	'insufficient_quota',
	'insufficient_user_quota',
	'budget_exceeded',
	'quota_exceeded',
];

/**
 * new-api's and one-api's words for a key or user out of quota, which some of their versions answer with 429
 * and no quota code: "token quota is not enough", "user quota is not enough", "用户额度不足", "令牌额度不足",
 * "该令牌额度已用尽", "余额不足".
 */
const QUOTA_WORDS =
	/\b(token|user) quota (is not enough|has been used up|is exhausted|exhausted)\b|(用户|令牌)额度不足|额度已用尽|余额不足/i;

/** The account behind the key is out of balance: 402, or a quota code or a gateway's quota words at any status. */
export function isOutOfBalance(error: ServiceError): boolean {
	return (
		error.status === 402 ||
		[error.errorCode, error.errorType].some((label) => QUOTA_LABELS.includes(label ?? '')) ||
		QUOTA_WORDS.test(error.serviceMessage)
	);
}

/**
 * one-api / new-api say "no channel" for a model the key's group cannot reach: HTTP 503, `code` null or
 * `model_not_found`, in Chinese or English builds. It is not an outage.
 */
const NO_CHANNEL = /无可用渠道|no available channels? for model/i;

/**
 * A 403 whose words say the key may not call the model, without `model_not_found`: "The model x is not available
 * to your token group", "You don't have access to the model ...", "No permission to use the model", new-api's
 * "该令牌无权访问模型 x".
 */
const REFUSAL = String.raw`\b(not available|not allowed|not permitted|no access|(do not|don't|does not|doesn't) have access|no permission|access denied)\b`;
const MODEL_REFUSED = new RegExp(
	String.raw`\bmodels?\b.*${REFUSAL}|${REFUSAL}.*\bmodels?\b|无权.*模型|模型.*(无权|不可用)`,
	'i',
);

/**
 * The key's group cannot call the model: `model_not_found` or a gateway's "no channel", at any status, or a 403
 * that says so in words.
 */
export function isModelUnavailable(error: ServiceError): boolean {
	return (
		error.errorCode === 'model_not_found' ||
		NO_CHANNEL.test(error.serviceMessage) ||
		(error.status === 403 && MODEL_REFUSED.test(error.serviceMessage))
	);
}

/** A gateway's "no channel" for the model, rather than a model the key may not call. */
export function isNoChannel(error: ServiceError): boolean {
	return error.errorCode !== 'model_not_found' && NO_CHANNEL.test(error.serviceMessage);
}

/**
 * A model that does not exist on the service: `model_not_found` at 404 or with "does not exist", or a 404
 * whose words name a model that is not there (Ollama: "model \"x\" not found, try pulling it first").
 */
export function isModelMissing(error: ServiceError): boolean {
	const { status, serviceMessage } = error;
	if (isModelUnavailable(error)) return status === 404 || /does not exist/i.test(serviceMessage);
	return (
		status === 404 && /\bmodel\b.*\b(not found|does not exist|not exist)/i.test(serviceMessage)
	);
}

/**
 * A 400 (or 422, or OpenRouter's 404) that says the model lacks a capability the request uses: images
 * (vision), tools (function calling), a response format or JSON schema. The service's words are the only
 * sign, so only wordings that name the capability and say it is missing count.
 */
const CAPABILITY =
	/\b(image|images|image_url|vision|multimodal|tools?|tool[ _]use|function[ _]?call(ing)?|functions|response_format|json_schema|structured output)\b/i;
const LACKS =
	/\b(not support(ed)?|does not support|doesn't support|unsupported|only supported by|no endpoints? found that support|unavailable|not available|not enabled|cannot (accept|take|process))\b/i;

export function lacksCapability(error: ServiceError): boolean {
	if (error.status !== 400 && error.status !== 422 && error.status !== 404) return false;
	if (error.errorCode === 'model_not_supported') return true;
	return CAPABILITY.test(error.serviceMessage) && LACKS.test(error.serviceMessage);
}

/**
 * A 400 (or 415, 422, OpenRouter's 404) that says the model cannot read the files sent (PDFs): words that name
 * files or PDFs and say they are not supported ("does not support file input", "PDF input is not supported",
 * "file is only supported by certain models"), or a service that does not know the `file` part at all
 * (serde's "unknown variant `file`, expected `text` or `image_url`", OpenAI's "Invalid value: 'file'").
 */
const FILE_WORDS = /\b(files?|file_data|pdfs?|documents?)\b/i;
const UNKNOWN_FILE_PART = /unknown variant `file`|invalid value: 'file'/i;

export function refusesFiles(error: ServiceError): boolean {
	if (![400, 404, 415, 422].includes(error.status)) return false;
	const words = error.serviceMessage;
	return UNKNOWN_FILE_PART.test(words) || (FILE_WORDS.test(words) && LACKS.test(words));
}

/** DeepSeek's thinking mode wants an assistant message's reasoning back (V3.2: "Missing `reasoning_content` field ...", V4: "... must be passed back"). */
const REASONING_MISSING =
	/missing `?reasoning_content`? field|reasoning_content\b.*must be passed back/i;
/** Services that take no reasoning on input (Groq, Cerebras: "property 'reasoning_content' is unsupported"). */
const REASONING_REFUSED =
	/\breasoning(_content|_details)?\b.*\b(unsupported|unexpected|not allowed|not permitted|unrecognized)/i;

/** A 400 of a thinking model that wants its reasoning back with the message that made tool calls. */
export function wantsReasoningBack(error: ServiceError): boolean {
	return error.status === 400 && REASONING_MISSING.test(error.serviceMessage);
}

/** A 400 of a service that takes no reasoning on the messages sent to it. */
export function refusesReasoning(error: ServiceError): boolean {
	return error.status === 400 && REASONING_REFUSED.test(error.serviceMessage);
}

/**
 * A service or model that takes no prompt caching: a 400 (or 422) whose words name `cache_control`
 * ("Extra inputs are not permitted: cache_control", "Unrecognized request argument supplied: cache_control").
 */
export function refusesPromptCaching(error: ServiceError): boolean {
	return (
		(error.status === 400 || error.status === 422) && /\bcache_control\b/.test(error.serviceMessage)
	);
}

/**
 * A model that cannot embed, asked to (a chat model at /embeddings): OpenAI's "You are not allowed to
 * generate embeddings from this model", vLLM's "does not support Embeddings API", Ollama's "this model does not
 * support embeddings", and the like.
 */
const CANNOT_EMBED =
	/\b(not allowed to generate embeddings|(not support(ed)?|does not support|doesn't support|unsupported|cannot|can't)\b.*\bembed(ding)?s?\b|embed(ding)?s?\b.*\b(not supported|unsupported)|not an embedding model)/i;

export function cannotEmbed(error: ServiceError): boolean {
	return [400, 403, 404, 422].includes(error.status) && CANNOT_EMBED.test(error.serviceMessage);
}

/**
 * A gateway that refuses a batch of this many inputs (e.g. "batch size is invalid, it should not be larger than
 * 10"), at the embeddings endpoint (an endpoint besides it has words of its own: speech's "'input' must be at
 * most 4096 characters" is a text too long, not a batch).
 */
const TOO_MANY_INPUTS =
	/\bbatch[ _-]?size\b|\btoo many inputs\b|\bmaximum\b.*\binputs?\b|\binputs?\b.*\b(at most|no more than|exceeds?)\b/i;

export function refusesBatchSize(error: ServiceError): boolean {
	return (
		error.endpoint === undefined &&
		[400, 413, 422].includes(error.status) &&
		TOO_MANY_INPUTS.test(error.serviceMessage)
	);
}

/**
 * A text the service refuses as too long at an endpoint that sends one (speech): OpenAI's `string_too_long`
 * ("String should have at most 4096 characters"), "'input' must be at most 4096 characters", "input is too
 * long", "exceeds the maximum length".
 */
const TOO_LONG =
	/\bstring_(too_long|above_max_length)\b|\btoo long\b|\bat most [\d,]+ characters\b|\bmax(imum)? (input )?length\b|\bcharacters?\b.*\b(limit|exceeds?)\b/i;

export function refusesTextLength(error: ServiceError): boolean {
	return (
		error.endpoint?.text !== undefined &&
		[400, 413, 422].includes(error.status) &&
		(TOO_LONG.test(error.errorCode ?? '') || TOO_LONG.test(error.serviceMessage))
	);
}

/**
 * A model that cannot rerank, asked to at /rerank: vLLM's "The model does not support Rerank (Score) API",
 * Infinity's "does not support `rerank`", "rerank is not supported by ... provider", llama.cpp's "This server
 * does not support reranking", and new-api's 500 "not implemented" (code `convert_request_failed`) for a
 * channel that has no rerank.
 */
const CANNOT_RERANK =
	/\b(not support(ed)?|does not support|doesn't support|unsupported|cannot|can't)\b.*\brerank(ing)?\b|\brerank(ing)?\b.*\b(not supported|unsupported|not available)\b|\bnot implemented\b/i;

export function cannotRerank(error: ServiceError): boolean {
	return (
		error.endpoint?.operation === 'rerank' &&
		[400, 404, 422, 500, 501].includes(error.status) &&
		CANNOT_RERANK.test(error.serviceMessage)
	);
}

/**
 * A 404 to a request at an endpoint besides chat that names no model (an HTML or text page, OpenAI's "Invalid URL
 * (POST /v1/rerank)", FastAPI's "Not Found"): the service at the Base URL has no such endpoint. A model the
 * endpoint refuses reads first (its row comes before).
 */
export function lacksEndpoint(error: ServiceError): boolean {
	return (
		error.endpoint !== undefined &&
		error.status === 404 &&
		!isModelMissing(error) &&
		!isModelUnavailable(error)
	);
}

/**
 * A model an image or audio endpoint refuses (a chat model asked for images, a transcription, speech): 400, 404
 * or 422 with `model_not_supported`, words that say it does not do what the endpoint does ("does not support
 * image generation", "No endpoints found ... that support ... audio", "not a text-to-speech model"), or OpenAI's
 * list of the models the field takes ("Invalid value: 'gpt-4o'. Supported values are: 'gpt-image-1', ...").
 */
const CANNOT_MEDIA =
	/\b(not support(ed)?|does not support|doesn't support|unsupported|cannot|can't|not an?|no endpoints? found)\b.*\b(images?|image generation|image edit(s|ing)?|audio|transcri(be|bes|ption|ptions)|translations?|speech|text-to-speech|tts)\b/i;
const SUPPORTED_MODELS = /\bsupported values are\b.*\b(dall-e|gpt-image|whisper|tts-1|transcribe)/i;

export function cannotServeMedia(error: ServiceError): boolean {
	return (
		error.endpoint?.model !== undefined &&
		[400, 404, 422].includes(error.status) &&
		(error.errorCode === 'model_not_supported' ||
			CANNOT_MEDIA.test(error.serviceMessage) ||
			SUPPORTED_MODELS.test(error.serviceMessage))
	);
}

/**
 * The provider's content policy refused the prompt: OpenAI's `content_policy_violation` ("rejected as a result
 * of our safety system"), gpt-image's `moderation_blocked`, Azure's `content_filter` ("... content management
 * policy"), at any endpoint.
 */
const POLICY_CODES = ['content_policy_violation', 'moderation_blocked', 'content_filter'];
const POLICY_WORDS = /\b(safety system|content (management )?policy|content_policy_violation)\b/i;

export function refusedByPolicy(error: ServiceError): boolean {
	return (
		POLICY_CODES.includes(error.errorCode ?? '') ||
		(error.status === 400 && POLICY_WORDS.test(error.serviceMessage))
	);
}

/**
 * A recording the service could not read as audio, though its first bytes say it is one (a damaged or cut-off
 * file): OpenAI's 400 "The audio file could not be decoded or its format is not supported", "Invalid file
 * format". Read before a model the endpoint refuses, whose words ("not supported ... audio") it shares.
 */
const UNREADABLE_RECORDING = /\b(audio file|file format|could not be decoded|invalid file)\b/i;

export function refusesRecording(error: ServiceError): boolean {
	return (
		error.endpoint?.uploads === 'recording' &&
		error.status === 400 &&
		UNREADABLE_RECORDING.test(error.serviceMessage)
	);
}

/**
 * An upload the service refused as too large: 413 at the endpoints that take files (a recording, images to
 * edit), or a 400 that says so ("Maximum content size limit (26214400) exceeded", "file is too large").
 */
const TOO_LARGE =
	/\bmaximum content size\b|\btoo large\b|\bfile size\b.*\b(limit|exceed)|\bexceeds? the (maximum|limit)\b/i;

export function refusesUploadSize(error: ServiceError): boolean {
	return (
		error.endpoint?.uploads !== undefined &&
		(error.status === 413 || (error.status === 400 && TOO_LARGE.test(error.serviceMessage)))
	);
}

/** new-api's cap on a key's requests in flight: "... at most N in-flight requests ..." (or concurrent, parallel). */
const IN_FLIGHT_CAP =
	/\bat most (\d+) (?:in-flight|concurrent|parallel) requests?\b|最多\s*(\d+)\s*个?并发/i;

/** The cap on requests in flight that a 429 names, or undefined. */
export function inFlightCap(error: ServiceError): number | undefined {
	if (error.status !== 429) return undefined;
	const match = IN_FLIGHT_CAP.exec(error.serviceMessage);
	const cap = Number(match?.[1] ?? match?.[2]);
	return cap >= 1 ? cap : undefined;
}

/** A window a 429 names: `requests` per `ms`, and whether failed requests count too. */
export interface NamedWindow {
	requests: number;
	ms: number;
	countsFailures: boolean;
}

/**
 * new-api's windows: "您已达到总请求数限制：N分钟内最多请求M次，包括失败次数" (failed requests count too) or
 * "您已达到请求数限制：N分钟内最多请求M次"; in English builds "... M requests within N minutes ...".
 */
const WINDOW_ZH = /(\d+(?:\.\d+)?)\s*分钟内最多请求\s*(\d+)\s*次/;
const WINDOW_EN = /\b(\d+) requests? (?:with)?in (\d+(?:\.\d+)?) minutes?\b/i;
const COUNTS_FAILURES = /包括失败|including fail/i;

/** The window a 429 names, or undefined. */
export function namedWindow(error: ServiceError): NamedWindow | undefined {
	if (error.status !== 429) return undefined;
	const text = error.serviceMessage;
	const zh = WINDOW_ZH.exec(text);
	const en = WINDOW_EN.exec(text);
	const [minutes, requests] = zh ? [zh[1], zh[2]] : en ? [en[2], en[1]] : [];
	const window = { requests: Number(requests), ms: Math.round(Number(minutes) * 60_000) };
	if (!(window.requests >= 1 && window.ms >= 1)) return undefined;
	return { ...window, countsFailures: COUNTS_FAILURES.test(text) };
}

/**
 * Whether an answer names the request's model as the one limited, as OpenAI's 429 does ("Rate limit reached for
 * gpt-4o-mini in organization org-... on requests per min"): the model ID as a word of its own.
 */
export function namesModel(error: ServiceError, model: string | undefined): boolean {
	if (model === undefined || model === '') return false;
	const text = error.serviceMessage;
	for (let at = text.indexOf(model); at >= 0; at = text.indexOf(model, at + 1)) {
		const around = `${text[at - 1] ?? ' '}${text[at + model.length] ?? ' '}`;
		if (!/[\w./:-]/.test(around)) return true;
	}
	return false;
}

/** A header's name in words that speak of headers: `x-portkey-provider`, `X-Title`. */
const HEADER_NAME = /\b(?:x-[a-z0-9]+|[a-z0-9]+-[a-z0-9]+)(?:-[a-z0-9]+)*\b/gi;

/** Portkey's words for a header's value it refuses, which do not name the header: "Invalid custom host". */
const HEADER_PHRASES: Array<[RegExp, string]> = [
	[/\bcustom host\b/i, 'x-portkey-custom-host'],
	[/\binvalid provider passed\b/i, 'x-portkey-provider'],
];

/** Words that say the header is missing, not wrong: "... header is required". */
const WANTED =
	/\b(required|missing|must be (set|sent|provided|present)|not (set|provided|present))\b/i;

/** A header a 400 names, and whether its words say it is missing (else its value is wrong). */
export interface NamedHeader {
	name: string;
	wanted: boolean;
}

/**
 * The request header a 400's words name, which is the credential's Extra Headers' business, not a field of
 * the node (one the node or the transport sets itself, such as Content-Type, is not): in words that say "header", the name right before that word, else the last name
 * (`Either x-portkey-config or x-portkey-provider header is required`: x-portkey-provider); or the header
 * Portkey's phrase stands for (`Invalid custom host`: x-portkey-custom-host).
 */
export function namedHeader(error: ServiceError): NamedHeader | undefined {
	if (error.status !== 400) return undefined;
	const words = error.serviceMessage;
	// A header the node sets itself (Content-Type, ...) is not for Extra Headers to add.
	const names = /\bheaders?\b/i.test(words)
		? [...words.matchAll(HEADER_NAME)].filter((match) => mayBeExtraHeader(match[0]))
		: [];
	const named =
		names
			.filter((match) => /^\s+headers?\b/i.test(words.slice(match.index + match[0].length)))
			.at(-1)?.[0] ??
		names.at(-1)?.[0] ??
		HEADER_PHRASES.find(([phrase]) => phrase.test(words))?.[1];
	return named === undefined ? undefined : { name: named, wanted: WANTED.test(words) };
}

/**
 * A gateway's words for the service behind it that it could not reach, with the address it tried (Portkey's
 * `Message: fetch failed Cause: Error: connect ECONNREFUSED 127.0.0.1:8080 ...`, `getaddrinfo ENOTFOUND host`).
 */
const UPSTREAM_UNREACHED =
	/\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT|EAI_AGAIN)\b(?:\s+\[?([\w.:-]*[\w\]])(?=[\s,;)"']|$))?/;

/** The service behind a gateway that it could not reach: the system's code and the host and port it named. */
export interface UnreachedUpstream {
	code: string;
	address?: string;
}

/**
 * Whether a gateway's 5xx says its fetch would not connect at all, since the port of the address it was given
 * is one fetch blocks (6000, 6665-6669, 10080, ...): Portkey's `Message: fetch failed Cause: Error: bad port`.
 */
export function refusedPort(error: ServiceError): boolean {
	return error.status >= 500 && /\bfetch failed\b.*\bbad port\b/i.test(error.serviceMessage);
}

/** What a gateway's 5xx says of the service behind it that it could not reach, if it says so. */
export function unreachedUpstream(error: ServiceError): UnreachedUpstream | undefined {
	if (error.status < 500) return undefined;
	const found = UPSTREAM_UNREACHED.exec(error.serviceMessage);
	return found === null ? undefined : { code: found[1], address: found[2] };
}
