import { recordingAction } from './recording';
import { media } from '../../../../engine';

/** Audio > Transcribe a Recording. */
export const transcribe = recordingAction('transcribe', {
	name: 'Transcribe a Recording',
	action: 'Transcribe a recording',
	description: `Write down what a recording says (${media.MediaClient.callOf('transcribe')})`,
});
