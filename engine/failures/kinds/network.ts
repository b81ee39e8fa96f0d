import { NetworkError } from '../errors';
import type { FailureKind, Words, WordsContext } from '../kind';
import { duration, kind } from '../kind';

/** The request got no HTTP answer: its kinds, by the system's error code. */

/** Connections that failed before an answer began: another try can succeed. */
const LOST_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET'];
/**
 * No answer within Timeout: the service may still be writing (and billing) it, so sending again can cost
 * the whole answer and the whole Timeout once more. Retried only when Retry Timeouts is on.
 */
const TIMEOUT_CODES = ['ETIMEDOUT', 'ECONNABORTED'];

/** What a TLS client says when the other end answers in plain HTTP (an https:// Base URL on a plain port). */
const PLAIN_ANSWER_CODES = [
	'EPROTO',
	'ERR_SSL_WRONG_VERSION_NUMBER',
	'ERR_SSL_PACKET_LENGTH_TOO_LONG',
];

const NETWORK_WORDS: Record<string, [string, string]> = {
	ECONNREFUSED: [
		'refused the connection',
		'Check the Base URL in the credential and that the service is running and reachable from n8n.',
	],
	ENOTFOUND: [
		'has a host name that could not be found',
		"Check the host name in the credential's Base URL.",
	],
	EAI_AGAIN: [
		'has a host name that could not be looked up',
		'Check the host name in the Base URL and the DNS of the n8n machine.',
	],
	ECONNRESET: [
		'closed the connection before answering',
		'Run again; if it keeps happening, check proxies between n8n and the service.',
	],
	ERR_CANCELED: [
		'was left because the execution was cancelled',
		'Nothing to fix: the execution was stopped.',
	],
};

/** The Base URL (else the request's origin) with the other scheme: what to try when the scheme is wrong. */
function otherScheme(url: string, baseUrl: string | undefined): string {
	const address = baseUrl ?? new URL(url).origin;
	return address.startsWith('https:')
		? address.replace(/^https:/, 'http:')
		: address.replace(/^http:/, 'https:');
}

/**
 * A TLS port hangs up on plain HTTP at once: with an http:// Base URL, the scheme is the first suspect,
 * unless the service answered this process in plain HTTP before.
 */
function schemeHint(
	{ url, code, answeredBefore }: NetworkError,
	{ baseUrl }: WordsContext,
): string {
	return code === 'ECONNRESET' && url.startsWith('http://') && !answeredBefore
		? ` If the service uses TLS, the Base URL must start with https:// (${otherScheme(url, baseUrl)}).`
		: '';
}

function networkWords(error: NetworkError, context: WordsContext): Words {
	const [words, fix] = NETWORK_WORDS[error.code] ?? [
		'could not be reached',
		'Check the Base URL in the credential and the network between n8n and the service.',
	];
	return {
		message: `The service at ${error.url} ${words}`,
		fix: `${fix}${schemeHint(error, context)} (network error ${error.code})`,
		failure: { cause: 'temporarily-unavailable' },
	};
}

/** No answer within Timeout: the message states it, the fix says how to raise it and why it is not retried. */
function timeoutWords(error: NetworkError, { option, words }: WordsContext): Words {
	const within =
		error.timeoutMs === undefined ? 'the timeout' : `the Timeout of ${duration(error.timeoutMs)}`;
	const raise =
		error.timeoutMs === undefined
			? `Raise ${option('timeout')} for long answers.`
			: `Raise ${option('timeout')} above ${error.timeoutMs} for long answers.`;
	// Sent more than once, so Retry Timeouts is on: each attempt timed out.
	// The sub-nodes have no Retry Timeouts: a request that timed out is never sent again there.
	const unless = words.options.includes('retryTimeouts')
		? ` unless ${option('retryTimeouts')} is on`
		: '';
	const again =
		error.attempts > 1
			? `Each attempt waited that long (${option('retryTimeouts')} is on).`
			: `A request that timed out is not sent again${unless}: the service may still be writing, and billing, the answer.`;
	return {
		message: `The service at ${error.url} did not answer within ${within}`,
		fix: `${raise} ${again} (network error ${error.code})`,
		failure: { cause: 'temporarily-unavailable' },
	};
}

const withCodes =
	(codes: readonly string[]) =>
	(error: unknown): error is NetworkError =>
		error instanceof NetworkError && codes.includes(error.code);

export const NETWORK_KINDS: FailureKind[] = [
	kind<NetworkError>({
		name: 'https to a plain port',
		side: 'input',
		retry: 'never',
		overload: false,
		anotherModel: false,
		matches: (error): error is NetworkError =>
			withCodes(PLAIN_ANSWER_CODES)(error) && error.url.startsWith('https://'),
		words: (error, { baseUrl }) => ({
			message: `The service at ${error.url} answered in plain HTTP, not TLS: the Base URL probably starts with https:// where it should start with http://`,
			fix: `Open the credential and try the Base URL with http://: ${otherScheme(error.url, baseUrl)}. (network error ${error.code})`,
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	kind<NetworkError>({
		name: 'timeout',
		side: 'api',
		retry: 'back-off-if-timeouts-retried',
		overload: false,
		anotherModel: true,
		listed: 'a timeout',
		matches: withCodes(TIMEOUT_CODES),
		words: timeoutWords,
	}),
	kind<NetworkError>({
		name: 'cancelled',
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel: false,
		listed: 'a cancel',
		matches: withCodes(['ERR_CANCELED']),
		words: networkWords,
	}),
	kind<NetworkError>({
		name: 'connection lost',
		side: 'api',
		retry: 'back-off',
		overload: false,
		anotherModel: false,
		listed: 'the network on the way to the service',
		matches: withCodes(LOST_CODES),
		words: networkWords,
	}),
	kind<NetworkError>({
		name: 'unreachable',
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel: false,
		matches: (error): error is NetworkError => error instanceof NetworkError,
		words: networkWords,
	}),
];
