/** Errors the service answers with, as `{"error": {...}}` bodies with their HTTP status. */

export interface ErrorInit {
	status: number;
	message: string;
	type: string;
	code: string | null;
	/** Included in the body only when given (400s name the offending field, or null). */
	param?: string | null;
	headers?: Record<string, string>;
}

export interface ErrorBody {
	error: { message: string; type: string; param?: string | null; code: string | null };
}

export class ApiError extends Error {
	readonly status: number;
	readonly type: string;
	readonly code: string | null;
	readonly param: string | null | undefined;
	readonly headers: Record<string, string>;

	constructor(init: ErrorInit) {
		super(init.message);
		this.status = init.status;
		this.type = init.type;
		this.code = init.code;
		this.param = init.param;
		this.headers = init.headers ?? {};
	}

	body(): ErrorBody {
		const param = this.param === undefined ? {} : { param: this.param };
		return { error: { message: this.message, type: this.type, ...param, code: this.code } };
	}
}

/** 400 for a request the service cannot accept; `param` names the field at fault. */
export function invalidRequest(
	message: string,
	param: string | null,
	code: string | null = null,
): ApiError {
	return new ApiError({ status: 400, message, type: 'invalid_request_error', param, code });
}

/** Throws a 400 `invalid_value` whose message starts with the field at fault. */
export function rejectValue(message: string, param: string): never {
	throw invalidRequest(`${param}: ${message}`, param, 'invalid_value');
}

export function notFound(method: string, path: string): ApiError {
	return new ApiError({
		status: 404,
		message: `Invalid URL (${method} ${path})`,
		type: 'invalid_request_error',
		code: 'not_found',
	});
}
