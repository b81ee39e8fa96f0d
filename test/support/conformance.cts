/**
 * Validates request bodies against the official chat-completions request schema kept in
 * official-schema/ (see its README), with Ajv's JSON-Schema 2020-12 validator. A missing or unreadable
 * schema fails the test that asks, never skips it.
 */
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const schemaPath = join(__dirname, 'official-schema', 'openai-chat-completions.openapi.json');

let validate: (((body: unknown) => boolean) & { errors?: unknown }) | undefined;

function validator() {
	if (validate) return validate;
	const document = JSON.parse(readFileSync(schemaPath, 'utf8'));
	const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
	ajv.addSchema({ $id: 'openapi', components: document.components });
	validate = ajv.compile({ $ref: 'openapi#/components/schemas/CreateChatCompletionRequest' });
	return validate;
}

/** The schema errors for a request body, as readable lines; empty when the body conforms. */
export function conformanceErrors(body: unknown): string[] {
	const check = validator();
	if (check(body)) return [];
	return ((check.errors ?? []) as Array<{ instancePath: string; message?: string }>).map(
		(error) => `${error.instancePath || '/'} ${error.message ?? ''}`,
	);
}

/** After each test of the file, every request the local service received must fit the official schema. */
export function checkEveryRequestConforms(
	service: () => { requests(): Promise<Array<{ body: unknown }>> },
): void {
	afterEach(async () => {
		for (const request of await service().requests())
			expect(conformanceErrors(request.body)).toEqual([]);
	});
}
