/** A `pattern` compiled as a Unicode regular expression, or why it cannot be. */
export type CompiledPattern = { ok: true; regex: RegExp } | { ok: false; reason: string };

/** V8 starts its message with the whole pattern again; the part after it says what is wrong. */
const V8_PREFIX = /^Invalid regular expression: \/.*\/[a-z]*: /s;

/** Compiles a JSON Schema pattern (not anchored: it may match anywhere in the text). */
export function compilePattern(source: string): CompiledPattern {
	try {
		return { ok: true, regex: new RegExp(source, 'u') };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { ok: false, reason: message.replace(V8_PREFIX, '') };
	}
}
