import type { BodyKind } from './body';

/** The service (or a gateway in front of it) answered with an error. Pure data, no n8n types. */
export class ServiceError extends Error {
	constructor(
		readonly status: number,
		readonly serviceMessage: string,
		readonly errorType: string | undefined,
		readonly errorCode: string | undefined,
		readonly bodyKind: BodyKind,
		/** How long the service asks to wait before another try (Retry-After), in ms. */
		readonly retryAfterMs?: number,
	) {
		super(serviceMessage);
		this.name = 'ServiceError';
	}

	/** How many attempts were made in all, when retries were tried. */
	attempts = 1;
}

/** The service answered 2xx, but not with something this node can read. */
export class ReplyError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ReplyError';
	}
}
