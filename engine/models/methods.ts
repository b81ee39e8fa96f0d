/**
 * The Model field's list search and the credential test (both `GET /models`, the test with the balance
 * beside it), given to a node as its `methods` (here). `known-models.ts`: what the model check before a
 * batch accepts of the list (listed IDs, OpenRouter's variants, wildcard routes).
 */
import { testChatCompletionsApi } from './credential-test';
import { searchModels } from './search';

/** A node's `methods` for the credential: the Model list's search and the credential's test (both `GET /models`). */
export const modelMethods = {
	listSearch: { searchModels },
	credentialTest: { testChatCompletionsApi },
};
