import { BalanceUnavailableError } from '../errors';
import type { FailureKind } from '../kind';
import { kind } from '../kind';
import { lacksEndpoint } from '../service-signs';
import { missingVersion, service } from './service';

/**
 * A service without the endpoint a node calls (a 404 that names no model, at /rerank or an image or audio
 * endpoint): the Base URL, or a gateway that does not offer it; and one that tells no balance at any of the
 * endpoints gateways tell it at (under a Base URL without its version segment, where one answered 404: the
 * missing /v1, as for the other endpoints). Not retried; no other model helps.
 */
export const ENDPOINT_KINDS: FailureKind[] = [
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
