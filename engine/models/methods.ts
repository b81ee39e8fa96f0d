import { testChatCompletionsApi } from './credential-test';
import type { ListKind } from './search';
import { searchModelsOf } from './search';

/** A node's `methods` for the credential alone: its test (`GET /models`). */
export const credentialMethods = { credentialTest: { testChatCompletionsApi } };

/** A node's `methods` for the credential and its Model list: the models a node of `kind` can use. */
export function modelMethods(kind: ListKind) {
	return { listSearch: { searchModels: searchModelsOf(kind) }, ...credentialMethods };
}
