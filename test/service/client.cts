/** Small HTTP helpers for the local-service tests. */
import type { LocalService } from '../support/service.cts';

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	/** The body parsed as JSON (undefined when it is not JSON). */
	json: any;
}

async function reply(response: Response): Promise<Reply> {
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

export async function send(url: string, init: RequestInit = {}): Promise<Reply> {
	return reply(await fetch(url, init));
}

export function getModels(service: LocalService, key: string): Promise<Reply> {
	return send(`${service.baseUrl}/models`, { headers: { Authorization: `Bearer ${key}` } });
}

export function chat(service: LocalService, key: string, body: unknown): Promise<Reply> {
	return send(`${service.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
}

/** The `data:` payloads of an SSE body, in order. */
export function sseData(text: string): string[] {
	return text
		.split('\n')
		.filter((line) => line.startsWith('data: '))
		.map((line) => line.slice('data: '.length));
}

export const hello = [{ role: 'user', content: 'Hello there, world' }];
