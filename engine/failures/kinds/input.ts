import { BaseError } from 'n8n-workflow';

import { ConnectionError, InputError, RefusedByN8n } from '../errors';
import type { FailureKind } from '../kind';
import { kind } from '../kind';

/** What must change in the node, the credential or n8n before anything can be sent: its kinds. */

const never = { side: 'input', retry: 'never', overload: false, anotherModel: false } as const;

export const INPUT_KINDS: FailureKind[] = [
	kind<InputError | ConnectionError>({
		...never,
		name: 'input',
		matches: (error): error is InputError | ConnectionError =>
			error instanceof InputError || error instanceof ConnectionError,
		words: (error) => ({
			message: error.message,
			fix: error.fix,
			...(error instanceof InputError && error.chatWords !== undefined
				? { chatWords: error.chatWords }
				: {}),
		}),
	}),
	kind<RefusedByN8n>({
		...never,
		name: 'refused by n8n',
		matches: (error): error is RefusedByN8n => error instanceof RefusedByN8n,
		words: (error) => ({ message: error.message, fix: error.description }),
	}),
	/** An error n8n raised itself (an expression it could not resolve, a missing credential): its own words. */
	kind<BaseError>({
		...never,
		name: 'raised by n8n',
		matches: (error): error is BaseError => error instanceof BaseError,
		words: (error) => {
			const parameter = (error as { context?: { parameter?: unknown } }).context?.parameter;
			const fallback =
				typeof parameter === 'string'
					? `n8n could not resolve the expression in the parameter "${parameter}": check it in the node.`
					: "This is an error n8n raised itself: check the node's settings and credential.";
			return { message: error.message, fix: error.description ?? fallback, raisedByN8n: error };
		},
	}),
];
