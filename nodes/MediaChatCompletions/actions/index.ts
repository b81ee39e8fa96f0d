import { speak } from './audio/generate';
import { transcribe } from './audio/transcribe';
import { translate } from './audio/translate';
import { edit } from './image/edit';
import { generate } from './image/generate';
import type { Action } from './item';
import { media } from '../../../engine';

/** The node's action for each operation (one file each, under `actions/<resource>/`). */
export const ACTIONS: { [N in media.MediaOperation]: Action<N> } = {
	generate,
	edit,
	transcribe,
	translate,
	speak,
};

/** An item's checked request for `operation`: its Model and Options, Extra Body kept off the fields the action sets. */
export function itemRequest<N extends media.MediaOperation>(
	operation: N,
	model: unknown,
	options: Record<string, unknown>,
): media.MediaRequest {
	return media.MediaClient.request(operation, model, options, ACTIONS[operation].sets);
}
