import { recordingAction } from './recording';

/** Audio > Translate a Recording: the same as Transcribe, in English. */
export const translate = recordingAction('translate');
