import { errors, media } from '../../../../engine';
import type { Action } from '../item';
import { BINARY_FIELD, binaryFieldProperty, itemUpload } from '../item';

/**
 * Audio > Transcribe or Translate a Recording: Input Binary Field's recording to the operation's input (one over
 * the limit refused before it is read, when n8n knows its size), the text and what else the service sent to
 * the output item.
 */
export function recordingAction<N extends 'transcribe' | 'translate'>(
	operation: N,
	entry: Omit<Action<N>['operation'], 'value'>,
): Action<N> {
	return {
		resource: 'audio',
		operation: { ...entry, value: operation },
		properties: [
			binaryFieldProperty(
				'The name of the binary field that holds the recording',
				'The binary field of the item that holds the recording',
			),
		],
		sets: { file: `the ${BINARY_FIELD} sets` } as Action<N>['sets'],
		job: (item) => {
			const { context, itemIndex, request } = item;
			const name = context.getNodeParameter('binaryPropertyName', itemIndex);
			if (typeof name !== 'string' || name.trim() === '') {
				throw new errors.InputError(
					BINARY_FIELD,
					'is empty',
					'Name the binary field of the recording, e.g. data.',
				);
			}
			const recording = itemUpload(item, name.trim(), BINARY_FIELD);
			if (recording.size !== undefined) {
				media.checkRecordingSize(recording.size, recording.source, BINARY_FIELD);
			}
			return {
				request,
				run: async (client) => {
					const input = { request, recording } as media.InputOf<N>;
					const { text, details } = await client.call(operation, input);
					return [{ json: { text, ...details }, pairedItem: { item: itemIndex } }];
				},
			};
		},
	};
}
