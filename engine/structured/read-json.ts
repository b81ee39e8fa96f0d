import { tryParseJson } from '../values';
import { describeViolations, validateValue } from '../json-schema';
import type { StructuredOutput } from '../request/response-format';

/** How many violations are quoted to the user and sent back to the model. */
const QUOTED = 5;

/** A reply's text read as JSON: the value, or what is wrong with it in one line. */
export type JsonReading = { ok: true; value: unknown } | { ok: false; problems: string };

/** Models often wrap JSON in a Markdown code fence even when asked not to: the fence is not the answer. */
const FENCE = /^```[a-z]*\s*\n([\s\S]*?)\n?```$/i;

/** Parses a reply as JSON and checks it against the schema; `jsonObject` wants an object. */
export function readJson(content: string, structured: StructuredOutput): JsonReading {
	const text = content.trim();
	const parsed = tryParseJson(FENCE.exec(text)?.[1] ?? text);
	if (!parsed.ok) {
		const shown =
			text === '' ? 'the reply is empty' : `the reply is not valid JSON (${parsed.reason})`;
		return { ok: false, problems: shown };
	}
	const schema = structured.schema ?? { type: 'object' };
	const violations = validateValue(schema, parsed.value);
	return violations.length === 0
		? { ok: true, value: parsed.value }
		: { ok: false, problems: describeViolations(violations, QUOTED) };
}
