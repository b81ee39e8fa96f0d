import { recordingAction } from './recording';
import { media } from '../../../../engine';

/** Audio > Translate a Recording: the same as Transcribe, in English. */
export const translate = recordingAction('translate', {
	name: 'Translate a Recording',
	action: 'Translate a recording',
	description: `Write down what a recording says, in English (${media.MediaClient.callOf('translate')})`,
});
