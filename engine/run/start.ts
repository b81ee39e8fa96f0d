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
