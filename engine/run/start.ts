/**
 * `startRun` (here): the one way a node starts a run, from its context (Concurrency and Token Budget where
 * it has them, the execution's cancel, where notes go) and the credential's key.
 *
 * `Run` (`run.ts`): what one run of a node shares: the limiter, the admission of jobs, the Token Budget
 * (`token-budget.ts`: checked before every attempt, a request going only while the largest reply so far
 * fits in what is left, and the cap on what is in flight: what is left over the largest reply, at most
 * twice the replies counted), the stop and its note, the failures that last for the run (a row's
 * `lasting`: for a model, which Fallback Models skip; for the key, after which no request is sent,
 * `KeyFailedEarlier`), and a model's first answer that its other requests wait for while a fallback is
 * left (`firstAsk`). `Run.send` is every attempt of every request: it takes the request's turn on the key
 * (`KeyState.acquire`) and reads a failure's row once, for what the key learns (`keySign`, through the
 * lease), what lasts, and the retries (`Reading`).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { Run } from './run';
import type { Connection } from '../connection';
import { optionSetting } from '../options/read';

/** What a run takes from a node's context (a node's, or a sub-node's): its settings, the execution's cancel, where notes go. */
export type RunContext = Pick<
	IExecuteFunctions,
	'getNode' | 'getNodeParameter' | 'logger' | 'getExecutionCancelSignal' | 'addExecutionHints'
>;

/**
 * A setting of the whole run (Concurrency, Token Budget), read alone from item 0 (an expression error in
 * another option is reported with its item); the table's default where the node has no such option.
 */
function runSetting(context: RunContext, name: 'concurrency' | 'tokenBudget'): number {
	const value = context.getNodeParameter(`options.${name}`, 0, null) as unknown;
	return optionSetting(value === null ? {} : { [name]: value }, name);
}

/**
 * The one way a node starts a run (once per execution of a node, once per supplied sub-node): on the
 * credential's key, so that every run on it in this n8n shares its pause, pacing, window and in-flight cap;
 * with the node's Concurrency and Token Budget (Auto and none where it has no such option); ended by the
 * execution's cancel; what the user should know of it shown above the node's output and in n8n's log.
 */
export function startRun(context: RunContext, connection: Connection): Run {
	return new Run({
		key: connection,
		concurrency: runSetting(context, 'concurrency'),
		tokenBudget: runSetting(context, 'tokenBudget'),
		cancel: context.getExecutionCancelSignal?.(),
		warn: (message) => {
			context.addExecutionHints?.({ message, type: 'warning', location: 'outputPane' });
			context.logger.warn(`${context.getNode().name}: ${message}`);
		},
	});
}
