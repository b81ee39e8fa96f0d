/**
 * The failures a user reads, as the nodes reach them (`problems.` at the engine's front door): a node's own
 * words (`NodeWords`), a failure described in them (`describeProblem`), and the n8n error or error item made
 * from that (`toNodeError`, `errorItem`).
 */
export type { NodeWords } from '../failures/kind';
export { chatWords } from './chat-words';
export { describeProblem } from './describe-problem';
export { errorItem, toNodeError } from './node-error';
export type { ProblemContext } from './problem';
