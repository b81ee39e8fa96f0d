import type { ReadBody } from './body';
import { readBody } from './body';
import { waitAsked } from './retry-after';
import { ServiceError } from '../failures/errors';
import type { HttpReply } from '../transport/outgoing';

/** `type` and `code` come as strings, numbers, "None" or null: keep only meaningful text. */
function label(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return text === '' || /^(none|null|undefined)$/i.test(text) ? undefined : text;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The error object inside a JSON body, in any of the shapes gateways send (`{error: {...}}`, `{error: "..."}`, `{message}`), or undefined. */
export function errorInJson(
	json: unknown,
): { message?: string; type?: string; code?: string } | undefined {
	if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
	const body = json as Record<string, unknown>;
	const { error } = body;
	if (typeof error === 'string') return { message: text(error) };
	if (typeof error === 'object' && error !== null) {
		const fields = error as Record<string, unknown>;
		return {
			message: text(fields.message) ?? text(fields.msg) ?? text(fields.detail),
			type: label(fields.type),
			code: label(fields.code),
		};
	}
	// Portkey: `{status: "failure", message}` of its own, `{"html-message": ...}` for a text answer or its own failure to reach the service behind it.
	const message = text(body.message) ?? text(body.detail) ?? text(body['html-message']);
	return message === undefined
		? undefined
		: { message, type: label(body.type), code: label(body.code) };
}

/**
 * Turns an error reply (its body read, when the caller has read it) into a ServiceError with the service's own
 * words; `endpoint` where the failure table reads that endpoint's failures apart (`rerank`).
 */
export function serviceErrorFrom(
	reply: HttpReply,
	body: ReadBody = readBody(reply.text),
	endpoint?: ServiceError['endpoint'],
): ServiceError {
	const found = body.kind === 'json' ? errorInJson(body.json) : undefined;
	const error = new ServiceError(
		reply.status,
		found?.message ?? body.summary,
		found?.type,
		found?.code,
		body.kind,
		waitAsked(reply.headers),
	);
	if (endpoint !== undefined) error.endpoint = endpoint;
	return error;
}
