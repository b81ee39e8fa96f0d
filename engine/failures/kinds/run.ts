import { LimiterClosed } from '../../concurrency/limiter';
import { KeyFailedEarlier, ModelsFailed, TokenBudgetSpent } from '../errors';
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
	kind<KeyFailedEarlier>({
		...never,
		name: 'key failed earlier',
		notSent: true,
		matches: (error): error is KeyFailedEarlier => error instanceof KeyFailedEarlier,
		words: ({ failure }, { model, messageOf, descriptionOf }) => ({
			message: messageOf(failure, model ?? ''),
			fix: `${descriptionOf(failure, model ?? '')} Not sent: an earlier request of this run got this answer, which holds for every request with this key, so the items after it were not sent.`,
		}),
	}),
	kind<TokenBudgetSpent>({
		...never,
		notSent: true,
		name: 'Token Budget spent',
		listed: 'the Token Budget',
		matches: (error): error is TokenBudgetSpent => error instanceof TokenBudgetSpent,
		// Read when described, once the run's requests have ended: the spend is the run's total.
		words: ({ budget }, { option }) => {
			const { limit, spent, largest } = budget;
			const left = limit - spent;
			return {
				message:
					left <= 0
						? `Not sent: this run of the node has spent its ${option('tokenBudget')} of ${limit} tokens (the replies received counted ${spent} tokens)`
						: `Not sent: the largest reply so far (${largest} tokens) does not fit in the ${left} tokens left of ${option('tokenBudget')} of ${limit} tokens (the replies received counted ${spent} tokens)`,
				fix: `Raise ${option('tokenBudget')} above ${spent}, by about ${largest} tokens for each item not sent (the largest reply so far), or set it to 0 for no budget.`,
				failure: { cause: 'quota-exhausted' },
			};
		},
	}),
	kind<LimiterClosed>({
		...never,
		name: 'stopped',
		notSent: true,
		listed: 'a stop',
		matches: (error): error is LimiterClosed => error instanceof LimiterClosed,
		words: () => ({
			message: "Not sent: the node stopped at another item's failure (On Error: Stop Workflow)",
			fix: "The other item's error says what failed; set On Error to Continue to send every item whatever the others do.",
		}),
	}),
];
