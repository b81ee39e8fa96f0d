import type { NodeWords } from '../failures/kind';

/** How the words name what the credential's test and the model list point at (shared by both nodes). */
export const CREDENTIAL_WORDS: NodeWords = {
	node: 'the Chat Completions API credential',
	options: [],
	errorDetails: false,
};
