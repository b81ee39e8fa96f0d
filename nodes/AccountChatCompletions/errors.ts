import type { problems } from '../../engine';
import { ACCOUNT_OPTIONS } from './properties';

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completions Account node',
	options: ACCOUNT_OPTIONS,
	errorDetails: false,
	reasoningMissing: '',
	reasoningRefused: '',
};
