/**
 * What `npm run try`'s banner says of its credentials: each one imported, its Base URL and key, and the example
 * workflows that name it, so that the keys of the RAG and media examples are on the screen too.
 */
import type { CredentialToImport, WorkflowToImport } from './import.cts';

/** The credential ids the workflow's nodes name. */
function credentialIds(workflow: WorkflowToImport): Set<string> {
	const ids = new Set<string>();
	for (const node of workflow.nodes as Array<{ credentials?: Record<string, { id?: string }> }>)
		for (const credential of Object.values(node.credentials ?? {}))
			if (credential.id !== undefined) ids.add(credential.id);
	return ids;
}

/** Per credential a line `"<name>" (<Base URL>, key <key>), used by:`, then one indented line per example. */
export function credentialLines(
	credentials: CredentialToImport[],
	workflows: WorkflowToImport[],
): string[] {
	return credentials.flatMap((credential) => {
		const users = workflows.filter((workflow) => credentialIds(workflow).has(credential.id));
		return [
			`"${credential.name}" (${credential.data.baseUrl}, key ${credential.data.apiKey}), used by:`,
			...(users.length === 0 ? ['  no example'] : users.map(({ name }) => `  ${name}`)),
		];
	});
}
