/**
 * A small JSON Schema validator for structured output and tool parameters.
 *
 * JSON Schema draft 2020-12: values checked by @cfworker/json-schema (interprets schemas, no code
 * generation; `library.ts` is the one file that calls it, and the build inlines it there), its findings in
 * our words (`output-units.ts`, `keyword-messages.ts`), and `checkSchema` for the schemas users type;
 * keywords in `validate.ts`.
 */
export { checkSchema } from './check-schema';
export { describeViolations } from './describe-violations';
export type { SchemaProblem, Violation } from './types';
export { validateValue } from './validate';
