/** Checks the local service's JSON answers against their schema with Ajv, a validator independent of the service. */
import Ajv2020 from 'ajv/dist/2020';

const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Ajv's errors for `value` against `schema`, as readable lines; empty when it conforms. */
export function schemaErrors(schema: object, value: unknown): string[] {
	const validate = ajv.compile(schema);
	if (validate(value)) return [];
	return (validate.errors ?? []).map(
		(error) => `${error.instancePath || '/'} ${error.message ?? ''}`,
	);
}
