import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { OPERATIONS } from './properties';
import type { Resource } from './properties';
import { media } from '../../engine';

/** The operation each Resource opens on, as its Operation field's default. */
const FIRST: Record<Resource, media.MediaOperation> = { image: 'generate', audio: 'transcribe' };

/** The kind of model the Model list shows: the chosen operation's (image, transcription or speech models). */
export function modelKindOfNode(context: ILoadOptionsFunctions) {
	const resource = (context.getCurrentNodeParameter('resource') ?? 'image') as Resource | 'video';
	if (resource === 'video') return 'video';
	const operation = context.getCurrentNodeParameter('operation');
	const chosen = typeof operation === 'string' ? OPERATIONS[resource]?.[operation] : undefined;
	return media.MediaClient.modelKindOf(chosen ?? FIRST[resource] ?? 'generate');
}
