import type { problems } from '../../engine';
import { REQUEST_OPTIONS } from './properties';

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completions Media node',
	options: REQUEST_OPTIONS,
	errorDetails: false,
};
