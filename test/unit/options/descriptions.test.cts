/**
 * Texts users read (issue 66, F19): Timeout and Extra Body of the nodes without streams, a named window's
 * seconds, and the Extra Headers hint against the headers the check refuses.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../../credentials/ChatCompletionsApi.credentials';
import { extraHeadersFrom } from '../../../engine/extra-headers';
import { ownHeaderNames } from '../../../engine/own-headers';
import { windowWords } from '../../../engine/failures/kinds/service';
import { namedWindow } from '../../../engine/failures/service-signs';
import { ServiceError } from '../../../engine/failures/errors';
import { AccountChatCompletions } from '../../../nodes/AccountChatCompletions/AccountChatCompletions.node';
import { EmbeddingsChatCompletions } from '../../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';
import { MediaChatCompletions } from '../../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { RerankerChatCompletions } from '../../../nodes/RerankerChatCompletions/RerankerChatCompletions.node';

/** Every option of every Options collection of the node, by name. */
function optionsOf(properties: INodeProperties[]): INodeProperties[] {
	return properties
		.filter((property) => property.name === 'options')
		.flatMap((property) => (property.options ?? []) as INodeProperties[]);
}

test.each([
	['Embeddings', new EmbeddingsChatCompletions().description.properties],
	['Reranker', new RerankerChatCompletions().description.properties],
	['Media', new MediaChatCompletions().description.properties],
	['Account', new AccountChatCompletions().description.properties],
])(
	'%s: Timeout speaks of no stream nor Retry Timeouts, Extra Body of no chat parameter',
	(_node, properties) => {
		const options = optionsOf(properties);
		const timeouts = options.filter((option) => option.name === 'timeout');
		expect(timeouts.length).toBeGreaterThan(0);
		for (const { description } of timeouts) {
			expect(description).not.toMatch(/stream/i);
			expect(description).not.toMatch(/Retry Timeouts/);
		}
		for (const { description } of options.filter((option) => option.name === 'extraBody'))
			expect(description).not.toContain('seed');
	},
);

test("a window in minutes with few digits reads in whole seconds: new-api's 0.0167 minutes is 1 s", () => {
	const error = new ServiceError(
		429,
		'您已达到请求数限制：0.0167分钟内最多请求10次',
		undefined,
		undefined,
		'json',
	);
	expect(windowWords(namedWindow(error)!)).toBe(
		"The key's limit of 10 requests per 1 s is used up",
	);
	expect(windowWords({ requests: 5, ms: 1500, countsFailures: false })).toContain(
		'5 requests per 1.5 s',
	);
	expect(windowWords({ requests: 5, ms: 60_120, countsFailures: false })).toContain(
		'5 requests a minute',
	);
	expect(windowWords({ requests: 5, ms: 120_000, countsFailures: false })).toContain(
		'per 2 minutes',
	);
});

test('the Extra Headers hint names every header the check refuses, and the check refuses each it names', () => {
	const hint = new ChatCompletionsApi().properties.find(
		({ name }) => name === 'extraHeaders',
	)?.hint;
	expect(ownHeaderNames()).toHaveLength(8);
	for (const name of ownHeaderNames()) {
		expect(hint).toContain(name);
		expect(() => extraHeadersFrom({ [name]: 'x' })).toThrow(`cannot set ${name}`);
	}
});
