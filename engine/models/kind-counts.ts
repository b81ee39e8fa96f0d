import type { CatalogueModel } from './catalogue';
import { MODEL_KINDS } from './gateway-tags';

/**
 * How many models the key may use, by the kind the catalogue gives each: `312 models (280 chat, 14 embeddings,
 * 6 rerank, 9 image, 3 speech)`; a model of two kinds counts in both, one whose kind the gateway does not tell
 * as `of unknown kind`. Only the number when the gateway tells no model's kind.
 */
export function kindCounts(models: readonly CatalogueModel[]): string {
	const total = models.length === 1 ? '1 model' : `${models.length} models`;
	const unknown = models.filter((model) => model.kinds.length === 0).length;
	if (unknown === models.length) return total;
	const parts = MODEL_KINDS.map(
		(kind) => [kind, models.filter((model) => model.kinds.includes(kind)).length] as const,
	)
		.filter(([, count]) => count > 0)
		.map(([kind, count]) => `${count} ${kind}`);
	if (unknown > 0) parts.push(`${unknown} of unknown kind`);
	return `${total} (${parts.join(', ')})`;
}
