/**
 * The test knobs of an embeddings request (its `x_local` object, taken out before validation): a gateway
 * that fails first (`fail_first`, as for chat completions), and replies that do not match the inputs as
 * they came, so that a client's reader can be tested: `shuffled` (the entries in reverse order, each with
 * its own `index`), `drop_last` (one entry fewer than the inputs), `no_index` (entries without `index`),
 * `not_numbers` (the first vector's first number sent as a string), `not_finite` (the last vector's second
 * number Infinity: `1e999` in JSON, the float's bytes in base64), `base64` (vectors as base64 even when floats
 * were asked for), `ignore_dimensions` (vectors of the model's length whatever `dimensions` asked); and
 * `for_input`, which keeps every other knob to the request whose input holds that text (one batch of several).
 */
import type { FailFirst } from './knobs.mts';
import { knobReader, readFailFirst } from './knobs.mts';

export interface EmbeddingKnobs {
	failFirst?: FailFirst;
	shuffled: boolean;
	dropLast: boolean;
	noIndex: boolean;
	notNumbers: boolean;
	notFinite: boolean;
	base64: boolean;
	ignoreDimensions: boolean;
	/** The knobs apply only to a request whose input holds this text. */
	forInput?: string;
}

/** The knobs of an `x_local` value (undefined: none set); throws a 400 naming the knob at fault. */
export function parseEmbeddingKnobs(value: unknown): EmbeddingKnobs {
	const reader = knobReader(value);
	const knobs: EmbeddingKnobs = {
		failFirst: readFailFirst(reader.object('fail_first')),
		shuffled: reader.boolean('shuffled'),
		dropLast: reader.boolean('drop_last'),
		noIndex: reader.boolean('no_index'),
		notNumbers: reader.boolean('not_numbers'),
		notFinite: reader.boolean('not_finite'),
		base64: reader.boolean('base64'),
		ignoreDimensions: reader.boolean('ignore_dimensions'),
		forInput: reader.string('for_input'),
	};
	reader.rejectUnread();
	return knobs;
}
