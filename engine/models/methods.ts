import { testChatCompletionsApi } from './credential-test';
import { searchModels } from './search';

/** A node's `methods` for the credential: the Model list's search and the credential's test (both `GET /models`). */
export const modelMethods = {
	listSearch: { searchModels },
	credentialTest: { testChatCompletionsApi },
};
