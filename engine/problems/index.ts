/**
 * The failures a user reads, as the nodes reach them (`problems.` at the engine's front door): a node's own
 * words (`NodeWords`), a failure described in them (`describeProblem`), and the n8n error or error item made
 * from that (`toNodeError`, `errorItem`).
 *
 * `describeProblem` takes the row's words and adds the service's status, code and words, the attempts, the
 * request id and the key's mask; `node-error.ts` makes n8n's error classes and the error item.
 */
export type { NodeWords } from '../failures/kind';
export { chatWords } from './chat-words';
export { describeProblem } from './describe-problem';
export { errorItem, toNodeError } from './node-error';
export type { ProblemContext } from './problem';
