/** `n8n import:credentials` and `n8n import:workflow` (run while the instance is stopped; each boots n8n). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runN8nCommand } from './process.cts';

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

export async function importIntoN8n(
	bin: string,
	env: NodeJS.ProcessEnv,
	{ credentials, workflows }: { credentials: CredentialToImport[]; workflows: WorkflowToImport[] },
): Promise<void> {
	// n8n's ids are columns of 36 characters; SQLite stores a longer one, PostgreSQL (queue mode) refuses it.
	const tooLong = [...credentials, ...workflows].filter(({ id }) => id.length > ID_LENGTH);
	if (tooLong.length > 0)
		throw new Error(
			`Ids longer than n8n's ${ID_LENGTH} characters: ${tooLong.map(({ id }) => id).join(', ')}`,
		);
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
