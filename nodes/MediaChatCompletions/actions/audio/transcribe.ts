import { recordingAction } from './recording';

/** Audio > Transcribe a Recording. */
export const transcribe = recordingAction('transcribe');
