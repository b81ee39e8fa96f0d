import { isPlainObject } from '../values';

/** The service's count of what a request of inputs used (embeddings, rerank): no completion tokens. */
export interface InputUsage {
	promptTokens: number;
	totalTokens: number;
}

function count(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The reply's `usage` (`prompt_tokens`, `total_tokens`, either standing for the other); undefined when it has neither. */
export function inputUsageOf(usage: unknown): InputUsage | undefined {
	if (!isPlainObject(usage)) return undefined;
	const prompt = count(usage.prompt_tokens);
	const total = count(usage.total_tokens) ?? prompt;
	if (total === undefined) return undefined;
	return { promptTokens: prompt ?? total, totalTokens: total };
}

/** The sum of the usage of a call's requests; undefined when none reported any. */
export function summedUsage(usages: ReadonlyArray<InputUsage | undefined>): InputUsage | undefined {
	const reported = usages.filter((usage) => usage !== undefined);
	if (reported.length === 0) return undefined;
	return {
		promptTokens: reported.reduce((sum, usage) => sum + usage.promptTokens, 0),
		totalTokens: reported.reduce((sum, usage) => sum + usage.totalTokens, 0),
	};
}
