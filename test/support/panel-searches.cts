/**
 * Words a user types into n8n's nodes panel, each with the node it must find: checked against the panel's own
 * matching (test/unit/nodes-panel.test.cts) and in the editor (test/e2e/browser.test.cts).
 */
export const PANEL_SEARCHES: Array<[search: string, node: string]> = [
	['Chat Completions Media', 'Chat Completions Media'],
	['Media', 'Chat Completions Media'],
	['image', 'Chat Completions Media'],
	['Generate an image', 'Chat Completions Media'],
	['transcribe', 'Chat Completions Media'],
	['speech', 'Chat Completions Media'],
	['audio', 'Chat Completions Media'],
	['balance', 'Chat Completions Account'],
	['chat completions', 'Chat Completion'],
];
