/** The engine's media units as the Media node calls them: its actions naming who sets each own field, its field. */
import { endpointAt } from './endpoints.cts';
import { mediaRequest as checkedRequest } from '../../engine/media/media-request';
import type { MediaOperation } from '../../engine/media/operations';
import { transcriptionParts as partsOf } from '../../engine/media/operations/transcribe';
import { readSpeech as readSpeechAt } from '../../engine/media/operations/speak';
import { recordingUpload as uploadOf } from '../../engine/media/request';
import type { ItemFile } from '../../engine/media/request';
import type { WholeReply } from '../../engine/transport/outgoing';
import { ACTIONS } from '../../nodes/MediaChatCompletions/actions';

/** The Media node's field of binary data, as errors name it. */
export const FIELD = 'Input Binary Field';

/** An item's request as the Media node checks it. */
export const mediaRequest = (
	operation: MediaOperation,
	model: unknown,
	options: Record<string, unknown>,
) => checkedRequest(operation, model, options, ACTIONS[operation].sets as never);

/** A transcription's parts, a recording over the limit named by the node's field. */
export const transcriptionParts = (
	request: Parameters<typeof partsOf>[0],
	file: Parameters<typeof partsOf>[1],
) => partsOf(request, file, FIELD);

/** A recording to upload as the node makes it, named `the recording` in its error. */
export const recordingUpload = (file: ItemFile) => uploadOf(file, 'the recording', FIELD);

/** A speech reply read as Generate Audio reads it. */
export const readSpeech = (reply: WholeReply, format: string | undefined) =>
	readSpeechAt(reply, format, endpointAt('audio/speech'));
