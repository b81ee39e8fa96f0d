/**
 * One request of a batch of items (`runItems`), as a node prepares it: the input items it answers, and what
 * went wrong when it cannot be sent. A node's job extends it with what it sends.
 */
export interface BatchJob {
	/** The input items it answers, first item first (several: items answering one reply's tool calls). */
	items: number[];
	/** Why it cannot be sent, found as it was prepared: sent, it throws this. */
	error?: unknown;
	/** The model it asks, for the words of its failure. */
	model?: string;
}
