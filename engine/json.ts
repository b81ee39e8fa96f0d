export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** JSON.parse without throwing, for callers that turn a failure into their own message. */
export function tryParseJson(text: string): JsonParse {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
}
