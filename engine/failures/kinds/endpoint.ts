import { BalanceUnavailableError } from '../errors';
import type { FailureKind } from '../kind';
import { kind } from '../kind';
import { lacksEndpoint } from '../service-signs';
import { missingVersion, service } from './service';

/**
 * A file the service answered with as a URL that its host refuses (a 404: expired); a service without the endpoint a node calls (a 404 that names no model, at /rerank or an image or audio
 * endpoint): the Base URL, or a gateway that does not offer it; and one that tells no balance at any of the
 * endpoints gateways tell it at (under a Base URL without its version segment, where one answered 404: the
 * missing /v1, as for the other endpoints). Not retried; no other model helps.
 */
export const ENDPOINT_KINDS: FailureKind[] = [
	service({
		name: 'download refused',
		anotherModel: false,
		// 408 and 429 are a wait asked, retried as any request's.
		test: ({ download, status }) =>
			download !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429,
		words: ({ download, status }) => ({
			message:
				status === 404
					? `The file the service answered with is not at its URL: GET ${download} answered 404`
					: `The file the service answered with could not be downloaded: GET ${download} answered ${status}`,
			fix:
				status === 404
					? 'A URL a service answers with often holds for minutes only: run the item again for a new one, or ask for the file in the reply itself (base64) where the operation offers it.'
					: 'The host of the file refused it: run the item again for a new URL; if it keeps happening, ask for the file in the reply itself (base64) where the operation offers it, or report it to the service.',
			failure: { cause: 'temporarily-unavailable' },
		}),
	}),
	service({
		name: 'endpoint not offered',
		anotherModel: false,
		test: lacksEndpoint,
		words: ({ endpoint }, { baseUrl = '', versioned }) => {
			if (!versioned) return missingVersion(baseUrl);
			// The sign reads only errors of an endpoint besides chat.
			const { name, offers, path } = endpoint!;
			return {
				message: `The service at "${baseUrl}" has no ${name} endpoint: POST ${baseUrl}/${path} answered 404`,
				fix: `Check the Base URL in the credential: it is the address that ends with the version segment, e.g. https://api.example.com/v1. If it is right, this gateway does not offer ${offers}: use one that serves POST /${path}.`,
				failure: { cause: 'configuration-invalid' },
			};
		},
	}),
	kind<BalanceUnavailableError>({
		name: 'no balance offered',
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel: false,
		matches: (error): error is BalanceUnavailableError => error instanceof BalanceUnavailableError,
		words: ({ answers, notFound }, { baseUrl = '', versioned }) =>
			notFound && !versioned
				? missingVersion(baseUrl)
				: {
						message: 'The service tells no balance for this key',
						fix: `It answered: ${answers.join('; ')}. OpenRouter, new-api, one-api and LiteLLM tell the balance to the key itself; with another service, see the balance in its console.`,
						failure: { cause: 'configuration-invalid' },
					},
	}),
];
