import type { IExecuteFunctions } from 'n8n-workflow';

import type { Job } from './plan-jobs';
import type { Connection } from '../../../engine';
import { errors, knownModels, problems } from '../../../engine';
import { WORDS } from '../words';

/** Whether the Model field is an expression, so that items may name different models. */
function modelFromExpression(context: IExecuteFunctions): boolean {
	const model = context.getNode().parameters.model as unknown;
	const value =
		typeof model === 'object' && model !== null ? (model as { value?: unknown }).value : model;
	return typeof value === 'string' && value.startsWith('=');
}

/**
 * Before a batch is sent (On Error: Stop Workflow), the jobs whose model no entry of the key's list covers, as invalid
 * jobs: one request for the key's model list (`GET /models`) instead of a failed request deep in the batch
 * that throws away every reply paid for before it. Nothing when the service does not list its models.
 */
async function jobsWithUnknownModels(
	context: IExecuteFunctions,
	connection: Connection,
	jobs: Job[],
): Promise<Job[]> {
	const known = await knownModels(context, connection, context.getExecutionCancelSignal?.());
	if (known === undefined) return [];
	return jobs.flatMap((job) => {
		const model = job.request?.body.model;
		if (model === undefined || known.covers(model)) return [];
		return [
			{
				...job,
				error: new errors.InputError(
					'Model',
					`"${model}" is not among the ${known.size} models this API key may call`,
					'Check the model ID the expression gives for typos, or pick a model from the list (it shows exactly the models this key may call); nothing was sent.',
				),
			},
		];
	});
}

/**
 * Items that name their own model: every model the batch will ask is checked before anything is sent. The
 * key's list refused for the key itself (a wrong key, no balance) fails the node with nothing sent.
 */
export async function checkModels(
	context: IExecuteFunctions,
	connection: Connection,
	jobs: Job[],
	streaming: boolean,
): Promise<Job[]> {
	if (jobs.length <= 1 || !modelFromExpression(context)) return [];
	return await jobsWithUnknownModels(context, connection, jobs).catch((error: unknown) => {
		const problem = problems.describeProblem(error, { ...connection, words: WORDS, streaming });
		problem.description += ` Nothing was sent: the check of the batch's models before it (GET /models) got this answer.`;
		throw problems.toNodeError(context.getNode(), problem);
	});
}
