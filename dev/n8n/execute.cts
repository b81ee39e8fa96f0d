/** `n8n execute --id=ID`: runs a saved workflow headless (n8n stopped) and reads the run data it logs. */
import { n8nCommand, tail } from './process.cts';

export interface NodeRun {
	data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
}

export interface ExecuteResult {
	runData: Record<string, NodeRun[]>;
	/** The workflow's error, as n8n reports it: message and description. */
	error?: { message: string; description?: string };
}

export async function executeWorkflow(
	bin: string,
	env: NodeJS.ProcessEnv,
	id: string,
): Promise<ExecuteResult> {
	const { output } = await n8nCommand(bin, { ...env, N8N_LOG_FORMAT: 'json' }, [
		'execute',
		`--id=${id}`,
	]);
	// The run is logged as one record whose message is the execution as JSON.
	for (const line of output.split('\n')) {
		const message = parseJson<{ message?: unknown }>(line)?.message;
		if (typeof message !== 'string' || !message.startsWith('{')) continue;
		const execution = parseJson<{
			data?: {
				resultData?: { runData?: ExecuteResult['runData']; error?: ExecuteResult['error'] };
			};
		}>(message);
		const result = execution?.data?.resultData;
		if (result?.runData !== undefined) return { runData: result.runData, error: result.error };
	}
	throw new Error(`n8n execute --id=${id} printed no run data:\n${tail(output)}`);
}

function parseJson<T>(text: string): T | undefined {
	try {
		return JSON.parse(text) as T;
	} catch {
		return undefined;
	}
}
