/**
 * The `refusal`, `text`/`repeat` and `huge_mb` knobs: a refusal, or a reply text, given by the test instead
 * of the model's own reply.
 */
import type { Knobs } from './knobs.mts';
import type { CompletionReply } from './models/model.mts';

const filler = 'lorem ipsum dolor sit amet ';

/** `mb` MiB of ASCII words. */
function hugeText(mb: number): string {
	const bytes = Math.round(mb * 1024 * 1024);
	return filler.repeat(Math.ceil(bytes / filler.length)).slice(0, bytes);
}

/**
 * The knob's refusal instead of any reply; a text reply with the knob's content (finish_reason stop);
 * tool calls and replies without such knobs as they are.
 */
export function withKnobContent(reply: CompletionReply, knobs: Knobs): CompletionReply {
	if (knobs.refusal !== undefined) {
		const { text, emptyContent } = knobs.refusal;
		return { kind: 'refusal', model: reply.model, refusal: text, emptyContent };
	}
	if (reply.kind !== 'text') return reply;
	if (knobs.hugeMb !== undefined) {
		return { ...reply, content: hugeText(knobs.hugeMb), finishReason: 'stop' };
	}
	if (knobs.text !== undefined) return { ...reply, content: knobs.text, finishReason: 'stop' };
	return reply;
}
