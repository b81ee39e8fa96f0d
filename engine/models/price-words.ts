import type { CatalogueModel } from './catalogue';

/** An amount in dollars: two decimals from a cent up, two significant digits below (`$0.0001`). */
function dollars(value: number): string {
	if (value === 0 || value >= 0.01) return `$${value.toFixed(2)}`;
	return `$${Number(value.toPrecision(2)).toFixed(12).replace(/0+$/, '')}`;
}

/** A context length in tokens: `128k`, `1M`, `512`. */
function tokens(count: number): string {
	if (count >= 1_000_000) return `${Number((count / 1_000_000).toFixed(1))}M`;
	if (count >= 1000) return `${Math.round(count / 1000)}k`;
	return String(count);
}

/**
 * What a model costs and how much it reads, as the gateway tells it: `$0.15 in / $0.60 out per 1M tokens, 128k
 * context`, `$0.04 per image`, `$0.0001 per second`, `$0.002 per call`; empty when the gateway tells nothing.
 */
export function priceWords(model: CatalogueModel): string {
	const {
		inputPerMillion: input,
		outputPerMillion: output,
		perImage,
		perSecond,
		perCall,
	} = model.pricing ?? {};
	const parts: string[] = [];
	if (input !== undefined && output !== undefined) {
		parts.push(`${dollars(input)} in / ${dollars(output)} out per 1M tokens`);
	} else if (input !== undefined || output !== undefined) {
		parts.push(`${dollars((input ?? output)!)} per 1M tokens`);
	}
	if (perImage !== undefined) parts.push(`${dollars(perImage)} per image`);
	if (perSecond !== undefined) parts.push(`${dollars(perSecond)} per second`);
	if (perCall !== undefined) parts.push(`${dollars(perCall)} per call`);
	if (model.contextLength !== undefined) parts.push(`${tokens(model.contextLength)} context`);
	return parts.join(', ');
}
