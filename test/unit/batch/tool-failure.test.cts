import { toolFailureMessage } from '../../../engine/batch/tool-failure';

describe("a failed tool call, as the agent's model reads it", () => {
	test('a failure reads as what happened and the fix, without an item number', () => {
		const message = toolFailureMessage({
			kind: 'api',
			message: 'The service rejected the API key',
			description:
				'The service answered "Invalid token" (HTTP 401). Open the credential and paste the key again.',
		});
		expect(message).toBe(
			'The service rejected the API key. The service answered "Invalid token" (HTTP 401). Open the credential and paste the key again.',
		);
		expect(message).not.toMatch(/item \d/);
	});
});
