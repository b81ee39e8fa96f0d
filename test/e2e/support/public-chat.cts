/** Public Chat Triggers in a real n8n: published and live, and messages posted to them as n8n's chat posts them. */
import type { N8nRest } from '../../../dev/n8n/rest.cts';

/** Publishes the workflow and waits until its public chat answers GET with its page (its webhooks are live). */
export async function publishPublicChat(
	rest: N8nRest,
	workflowId: string,
	chatPath: string,
): Promise<void> {
	await rest.publish(workflowId);
	const deadline = Date.now() + 60_000;
	while ((await fetch(`${rest.url}/webhook/${chatPath}`)).status !== 200) {
		if (Date.now() > deadline) throw new Error(`The chat at /webhook/${chatPath} did not go live`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** A chat message as n8n's chat sends it (JSON, no files) in the session `sessionId`. */
export function sendChatMessage(
	url: string,
	chatPath: string,
	sessionId: string,
	chatInput: string,
): Promise<Response> {
	return fetch(`${url}/webhook/${chatPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput }),
	});
}
