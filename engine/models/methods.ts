/**
 * The Model field's list search and the credential test, given to a node as its `methods` (here). The list
 * (`search.ts`) shows the models of the kind the node can use, described by `price-words.ts`, from the catalogue
 * (`catalogue.ts`: `GET /models?output_modalities=all` and the endpoints that tell prices; what each gateway shape
 * tells of a model, one row each, in `gateway-tags.ts`). The test (`credential-test.ts`) asks `GET /models` with
 * the balance beside it. `known-models.ts`: what the model check before a batch accepts of the list (listed IDs,
 * OpenRouter's variants, wildcard routes).
 */
import { testChatCompletionsApi } from './credential-test';
import type { ListKind } from './search';
import { searchModelsOf } from './search';

/** A node's `methods` for the credential alone: its test (`GET /models`). */
export const credentialMethods = { credentialTest: { testChatCompletionsApi } };

/** A node's `methods` for the credential and its Model list: the models a node of `kind` can use. */
export function modelMethods(kind: ListKind) {
	return { listSearch: { searchModels: searchModelsOf(kind) }, ...credentialMethods };
}
