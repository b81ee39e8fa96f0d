import type { INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BatchJob } from './job';
import { describeProblem } from '../problems/describe-problem';
import { toNodeError } from '../problems/node-error';
import type { Problem, ProblemContext } from '../problems/problem';

/** How many problems the message quotes; the description names every item. */
const QUOTED = 3;

/** Items that share one problem. */
interface Group {
	problem: Problem;
	items: number[];
}

/** How many runs of item numbers the message names for one problem; the description names them all. */
const RUNS_IN_MESSAGE = 4;

/**
 * Item numbers with runs shortened: "item 4", "items 3, 7", "items 10 to 14, 20"; with `most`, at most that
 * many runs and how many items more: "items 1, 3, 5, 7 and 96 more".
 */
export function itemNumbers(items: number[], most = Infinity): string {
	const runs: string[] = [];
	let named = 0;
	for (let start = 0; start < items.length; ) {
		let end = start;
		while (end + 1 < items.length && items[end + 1] === items[end] + 1) end++;
		const first = items[start];
		const last = items[end];
		if (runs.length >= most) break;
		if (end - start >= 2) runs.push(`${first} to ${last}`);
		else runs.push(...items.slice(start, end + 1).map(String));
		named = end + 1;
		start = end + 1;
	}
	const rest = items.length - named;
	const more = rest > 0 ? ` and ${rest} more` : '';
	return `${items.length === 1 ? 'item' : 'items'} ${runs.join(', ')}${more}`;
}

/** The problems of the invalid items, items with the same words together, in the order of their first item. */
function groups(invalid: BatchJob[], context: ProblemContext): Group[] {
	const byWords = new Map<string, Group>();
	const failed = invalid
		.flatMap((job) => job.items.map((itemIndex) => ({ itemIndex, job })))
		.sort((a, b) => a.itemIndex - b.itemIndex);
	for (const { itemIndex, job } of failed) {
		const problem = describeProblem(job.error, context);
		const words = `${problem.message}\n${problem.description}`;
		const group = byWords.get(words) ?? { problem, items: [] };
		group.items.push(itemIndex);
		byWords.set(words, group);
	}
	return [...byWords.values()];
}

/**
 * The error for On Error: Stop Workflow when items are invalid: nothing was sent, so no reply is paid for
 * and thrown away. One invalid item gives its own error; several are one error whose description names
 * every item (those with the same problem together), so that all can be fixed in one round.
 */
export function invalidItemsError(
	node: INode,
	invalid: BatchJob[],
	context: ProblemContext,
): NodeApiError | NodeOperationError {
	const found = groups(invalid, context);
	const count = found.reduce((sum, group) => sum + group.items.length, 0);
	const first = found[0];
	if (count === 1) return toNodeError(node, first.problem, first.items[0]);
	const quoted = found
		.slice(0, QUOTED)
		.map(({ items, problem }) => `${itemNumbers(items, RUNS_IN_MESSAGE)}: ${problem.message}`);
	const more = found.length - quoted.length;
	const others = more === 1 ? '1 more problem' : `${more} more problems`;
	const list = more > 0 ? `${quoted.join('; ')}; and ${others}` : quoted.join('; ');
	const every = found.map(
		({ items, problem }) =>
			`${itemNumbers(items).replace(/^i/, 'I')}: ${problem.message.replace(/\.$/, '')}. ${problem.description}`,
	);
	const error = new NodeOperationError(
		node,
		`${count} items are invalid, so nothing was sent: ${list}`,
		{
			description: `${every.join(' ')} Fix them and run again, or set On Error to Continue to send the valid items.`,
			itemIndex: first.items[0],
		},
	);
	// An expression n8n could not resolve names its parameter: the editor shows it, as for one item.
	const parameter = (first.problem.raisedByN8n as { context?: { parameter?: unknown } })?.context
		?.parameter;
	if (typeof parameter === 'string') error.context.parameter = parameter;
	return error;
}
