/**
 * The Account manual's check before a batch: Get Balance, then n8n's If node with the condition the README gives, run by
 * n8n's engine against the local service's balance shapes. A key with money left and a key without a limit pass;
 * an overdrawn key does not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { baseNodeType } from '../../dev/n8n-core/base-types.cts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { AccountChatCompletions } from '../../nodes/AccountChatCompletions/AccountChatCompletions.node';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const TYPE = 'n8n-nodes-chat-completions.accountChatCompletions';

/** The expression of the If-node condition that the Account node's manual (docs/account.md) gives. */
function readmeCondition(): string {
	const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'account.md'), 'utf8');
	const section = readme.slice(readme.search(/^#+ The balance\n/m));
	const condition = /with an If node[^`]*`(\{\{[^`]+\}\})`/.exec(section);
	if (!condition) throw new Error('docs/account.md: no If-node condition in "The balance"');
	return condition[1];
}

function workflow(): { nodes: INode[]; connections: Record<string, unknown> } {
	return {
		nodes: [
			{
				id: 'balance',
				name: 'Get Balance',
				type: TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { operation: 'getBalance' },
				credentials: { chatCompletionsApi: { id: 'local', name: 'Local' } },
			},
			{
				id: 'check',
				name: 'Enough Left',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [240, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								id: 'enough',
								leftValue: `=${readmeCondition()}`,
								rightValue: '',
								operator: { type: 'boolean', operation: 'true', singleValue: true },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			},
		],
		connections: {
			'Get Balance': { main: [[{ node: 'Enough Left', type: 'main', index: 0 }]] },
		},
	};
}

test.each([
	['$4.20 left', 'openrouter', 'true'],
	['no limit (remaining null)', 'openrouter unlimited', 'true'],
	['no limit, new-api billing', 'new-api unlimited', 'true'],
	['overdrawn by $2.50', 'openrouter overdrawn', 'false'],
])("a key with %s (%s) goes to the If node's %s output", async (_case, shape, branch) => {
	const engine = createEngine({
		nodeTypes: {
			[TYPE]: new AccountChatCompletions(),
			'n8n-nodes-base.if': baseNodeType('If', 'If'),
		},
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: {
			chatCompletionsApi: {
				apiKey: keys.default,
				baseUrl: service().baseUrl,
				extraHeaders: JSON.stringify({ 'x-local-balance': shape }),
			},
		},
	});
	const { runData, error } = await engine.runWorkflow({
		workflow: workflow() as Parameters<typeof engine.runWorkflow>[0]['workflow'],
		startNode: 'Get Balance',
	});
	expect(error).toBeUndefined();
	const [passed, stopped] = runData['Enough Left'][0].data!.main;
	expect({ true: passed?.length ?? 0, false: stopped?.length ?? 0 }).toEqual(
		branch === 'true' ? { true: 1, false: 0 } : { true: 0, false: 1 },
	);
});
