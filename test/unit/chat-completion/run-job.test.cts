import type { IExecuteFunctions } from 'n8n-workflow';

import { streamsToClient } from '../../../nodes/ChatCompletion/execute/run-job';

const context = (streaming: boolean, tool: boolean) =>
	({ isStreaming: () => streaming, isToolExecution: () => tool }) as unknown as IExecuteFunctions;

test('replies go to a streaming client, but not when an AI Agent runs the node as a tool (its reply is for the model)', () => {
	expect(streamsToClient(context(true, false))).toBe(true);
	expect(streamsToClient(context(true, true))).toBe(false);
	expect(streamsToClient(context(false, false))).toBe(false);
	expect(streamsToClient({} as IExecuteFunctions)).toBe(false);
});
