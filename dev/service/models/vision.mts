/**
 * `vision-1` reads the images of the last user message: one line per image_url part, in order,
 * `Image 1: PNG 2x3` (and ` (detail high)` when the part gives a detail), then after a blank line
 * `You asked: <text of the message>`. Cut to max_tokens words like the other models.
 */
import type { ChatMessage } from '../chat-messages.mts';
import type { ChatRequest } from '../chat-request.mts';
import { loadImage } from '../images/image-source.mts';
import { messageText } from '../message-text.mts';
import { limitedReply } from './echo.mts';
import { releaseDate, type ModelDefinition, type TextReply } from './model.mts';

function lastUserIndex(messages: readonly ChatMessage[]): number {
	for (let index = messages.length - 1; index >= 0; index -= 1) {
		if (messages[index].role === 'user') return index;
	}
	return -1;
}

async function describeImages(message: ChatMessage, index: number): Promise<string[]> {
	const lines: string[] = [];
	const parts = Array.isArray(message.content) ? message.content : [];
	for (const [partIndex, part] of parts.entries()) {
		if (part.image === undefined) continue;
		const info = await loadImage(part.image.url, `messages[${index}].content[${partIndex}]`);
		const detail = part.image.detail === undefined ? '' : ` (detail ${part.image.detail})`;
		lines.push(`Image ${lines.length + 1}: ${info.format} ${info.width}x${info.height}${detail}`);
	}
	return lines;
}

async function visionReply(request: ChatRequest): Promise<TextReply> {
	const index = lastUserIndex(request.messages);
	const message = request.messages[index];
	const lines = index < 0 ? [] : await describeImages(message, index);
	const text = index < 0 ? '' : messageText(message);
	const sections = [lines.join('\n'), text === '' ? '' : `You asked: ${text}`];
	const answer = sections.filter((section) => section !== '').join('\n\n');
	return limitedReply('vision-1-2026-11-01', answer, request);
}

export const visionModel: ModelDefinition = {
	id: 'vision-1',
	created: releaseDate,
	ownedBy: 'local-vision',
	respond: visionReply,
};
