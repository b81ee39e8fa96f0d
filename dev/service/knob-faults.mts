/**
 * The knobs that answer with an error: `fail_first` (the first N requests carrying an id fail) and
 * `reject_response_format` (DeepSeek's 400 for a response_format type it does not offer).
 */
import { ApiError } from './errors.mts';
import type { KnobCounts } from './knob-counts.mts';
import type { FailFirst, FailStatus, RejectedFormats } from './knobs.mts';
import type { ResponseFormat } from './response-format.mts';

const failures: Record<FailStatus, { message: string; type: string; code: string }> = {
	429: {
		message: 'Rate limit reached, please try again later',
		type: 'rate_limit_error',
		code: 'rate_limit_exceeded',
	},
	500: { message: 'Internal server error', type: 'server_error', code: 'internal_error' },
	502: {
		message: 'Bad gateway: the upstream connection failed',
		type: 'server_error',
		code: 'bad_gateway',
	},
	503: {
		message: 'The service is temporarily unavailable',
		type: 'server_error',
		code: 'service_unavailable',
	},
	504: {
		message: 'Gateway timeout: the upstream did not answer in time',
		type: 'server_error',
		code: 'gateway_timeout',
	},
};

const now = () => performance.timeOrigin + performance.now();

/**
 * Counts this request; throws the knob's error while its id has been seen at most `count` times. Under
 * `strict_retry_after`, a request that comes before the last failure's Retry-After has passed fails again
 * (Retry-After: the seconds left, rounded up to the millisecond) and is not counted.
 */
export function checkFailFirst(knob: FailFirst | undefined, counts: KnobCounts): void {
	if (knob === undefined) return;
	const failure = failures[knob.status];
	const fail = (detail: string, retryAfter: string | undefined) =>
		new ApiError({
			status: knob.status,
			message: `${failure.message} (fail_first '${knob.id}': ${detail})`,
			type: failure.type,
			code: knob.code ?? failure.code,
			headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
		});
	const early = counts.dueAt('fail_first', knob.id) - now();
	if (knob.strictRetryAfter && early > 0) {
		throw fail('came back before Retry-After had passed', (Math.ceil(early) / 1000).toFixed(3));
	}
	const seen = counts.next('fail_first', knob.id);
	if (seen > knob.count) return;
	if (knob.strictRetryAfter) {
		counts.setDueAt('fail_first', knob.id, now() + Number(knob.retryAfter) * 1000);
	}
	throw fail(`failure ${seen} of ${knob.count}`, knob.retryAfter);
}

/** The types each `reject_response_format` value refuses. */
const rejectedTypes: Record<RejectedFormats, ReadonlyArray<ResponseFormat['type']>> = {
	json_schema: ['json_schema'],
	json: ['json_schema', 'json_object'],
};

/** DeepSeek's answer, exactly, when the request's response_format type is one the knob refuses. */
export function checkResponseFormat(
	knob: RejectedFormats | undefined,
	format: ResponseFormat,
): void {
	if (knob === undefined || !rejectedTypes[knob].includes(format.type)) return;
	throw new ApiError({
		status: 400,
		message: 'This response_format type is unavailable now',
		type: 'invalid_request_error',
		param: null,
		code: 'invalid_request_error',
	});
}
