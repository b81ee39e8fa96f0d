/**
 * Credentials and workflows into n8n: with `n8n import:credentials` and `n8n import:workflow` (run while the
 * instance is stopped; each boots n8n), or through the REST API of a running n8n 2.x (no boot of its own).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runN8nCommand } from './process.cts';
import type { N8nRest } from './rest.cts';

export interface CredentialToImport {
	id: string;
	name: string;
	type: string;
	/** Plain values: n8n encrypts them on import. */
	data: Record<string, string>;
}

export interface WorkflowToImport {
	id: string;
	name: string;
	nodes: unknown[];
	connections: unknown;
	settings?: unknown;
}

const ID_LENGTH = 36;

interface ToImport {
	credentials: CredentialToImport[];
	workflows: WorkflowToImport[];
}

/** n8n's ids are columns of 36 characters; SQLite stores a longer one, PostgreSQL (queue mode) refuses it. */
function checkIds({ credentials, workflows }: ToImport): void {
	const tooLong = [...credentials, ...workflows].filter(({ id }) => id.length > ID_LENGTH);
	if (tooLong.length > 0)
		throw new Error(
			`Ids longer than n8n's ${ID_LENGTH} characters: ${tooLong.map(({ id }) => id).join(', ')}`,
		);
}

/**
 * Through the REST API, as the owner: n8n gives each credential an id of its own, so the workflows' nodes are
 * given those ids in place of the ones they name; the workflows keep theirs. Returns n8n's credential id for
 * each id given.
 */
export async function importThroughRest(
	rest: N8nRest,
	toImport: ToImport,
): Promise<Map<string, string>> {
	checkIds(toImport);
	const ids = new Map<string, string>();
	for (const { id, name, type, data } of toImport.credentials)
		ids.set(id, await rest.createCredential({ name, type, data }));
	for (const workflow of toImport.workflows) {
		const nodes = (workflow.nodes as Array<{ credentials?: Record<string, { id: string }> }>).map(
			(node) =>
				node.credentials === undefined
					? node
					: {
							...node,
							credentials: Object.fromEntries(
								Object.entries(node.credentials).map(([type, credential]) => [
									type,
									{ ...credential, id: ids.get(credential.id) ?? credential.id },
								]),
							),
						},
		);
		await rest.createWorkflow({ ...workflow, nodes });
	}
	return ids;
}

export async function importIntoN8n(
	bin: string,
	env: NodeJS.ProcessEnv,
	{ credentials, workflows }: ToImport,
): Promise<void> {
	checkIds({ credentials, workflows });
	const dir = mkdtempSync(join(env.N8N_USER_FOLDER ?? '.', 'import-'));
	try {
		const credentialsFile = join(dir, 'credentials.json');
		const workflowsFile = join(dir, 'workflows.json');
		writeFileSync(credentialsFile, JSON.stringify(credentials));
		writeFileSync(workflowsFile, JSON.stringify(workflows));
		await runN8nCommand(bin, env, ['import:credentials', `--input=${credentialsFile}`]);
		await runN8nCommand(bin, env, ['import:workflow', `--input=${workflowsFile}`]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
