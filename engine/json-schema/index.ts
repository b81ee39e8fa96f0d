/** A small JSON Schema validator for structured output and tool parameters (see validate.ts). */
export { checkSchema } from './check-schema';
export { describeViolations } from './describe-violations';
export type { SchemaProblem, Violation } from './types';
export { validateValue } from './validate';
