import { LimiterClosed } from '../../concurrency/limiter';
import { ModelsFailed, TokenBudgetSpent } from '../errors';
import type { FailureKind } from '../kind';
import { kind } from '../kind';

/** What the run decided, not the service: the Token Budget, a stop, every model of Fallback Models failing. */

const never = { side: 'api', retry: 'never', overload: false, anotherModel: false } as const;

export const RUN_KINDS: FailureKind[] = [
	kind<ModelsFailed>({
		...never,
		name: 'every model failed',
		matches: (error): error is ModelsFailed => error instanceof ModelsFailed,
		words: ({ failures }, { option, messageOf, descriptionOf }) => {
			const each = failures.map(({ model, error }) => `"${model}": ${messageOf(error, model)}`);
			const last = failures[failures.length - 1];
			return {
				message: `Each model failed (${option('fallbackModels')}): ${each.join('; ')}`,
				fix: `${descriptionOf(last.error, last.model)} Add another model to ${option('fallbackModels')}, or fix what the last one failed on.`,
			};
		},
	}),
	kind<TokenBudgetSpent>({
		...never,
		name: 'Token Budget spent',
		listed: 'the Token Budget',
		matches: (error): error is TokenBudgetSpent => error instanceof TokenBudgetSpent,
		// Read when described, once the run's requests have ended: the spend is the run's total.
		words: ({ budget }, { option }) => ({
			message: `Not sent: this run of the node has spent its ${option('tokenBudget')} of ${budget.limit} tokens (the replies received counted ${budget.spent} tokens)`,
			fix: `Raise ${option('tokenBudget')} above ${budget.spent} (or set it to 0 for no budget) to send the items that were not sent.`,
			failure: { cause: 'quota-exhausted' },
		}),
	}),
	kind<LimiterClosed>({
		...never,
		name: 'stopped',
		listed: 'a stop',
		matches: (error): error is LimiterClosed => error instanceof LimiterClosed,
		words: () => ({
			message: "Not sent: the node stopped at another item's failure (On Error: Stop Workflow)",
			fix: "The other item's error says what failed; set On Error to Continue to send every item whatever the others do.",
		}),
	}),
];
