/** The `fail_first` knob: the first N requests carrying an id fail, counted per id since start or the last clear. */
import { ApiError } from './errors.mts';
import type { FailFirst, FailStatus } from './knobs.mts';

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

export class FailureCounter {
	readonly #seen = new Map<string, number>();

	/** Counts this request; throws the knob's error while its id has been seen at most `count` times. */
	check(knob: FailFirst | undefined): void {
		if (knob === undefined) return;
		const seen = (this.#seen.get(knob.id) ?? 0) + 1;
		this.#seen.set(knob.id, seen);
		if (seen > knob.count) return;
		const failure = failures[knob.status];
		throw new ApiError({
			status: knob.status,
			message: `${failure.message} (fail_first '${knob.id}': failure ${seen} of ${knob.count})`,
			type: failure.type,
			code: knob.code ?? failure.code,
			headers: knob.retryAfter === undefined ? {} : { 'Retry-After': knob.retryAfter },
		});
	}

	clear(): void {
		this.#seen.clear();
	}
}
