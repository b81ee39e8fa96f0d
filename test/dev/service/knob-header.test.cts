/** The `x-local-knobs` header: the test knobs of a client behind a gateway that drops `x_local` from the body. */
import { keys, useLocalService } from '../../support/service.cts';
import { expectInvalidRequest, hello, send } from './client.cts';

const service = useLocalService();

const chatWith = (knobs: string, body: object) =>
	send(`${service().baseUrl}/chat/completions`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${keys.default}`,
			'Content-Type': 'application/json',
			'x-local-knobs': knobs,
		},
		body: JSON.stringify({ model: 'echo-1', messages: hello, ...body }),
	});

test('the header is the x_local of a body that has none', async () => {
	const reply = await chatWith('{"text": "from the header"}', {});
	expect(reply.json.choices[0].message.content).toBe('from the header');
});

test("a body's own x_local is kept", async () => {
	const reply = await chatWith('{"text": "from the header"}', {
		x_local: { text: 'from the body' },
	});
	expect(reply.json.choices[0].message.content).toBe('from the body');
});

test('a header that is not JSON text of an object is a 400 naming it', async () => {
	expectInvalidRequest(
		await chatWith('[1]', {}),
		'x-local-knobs',
		/must be JSON text of an object/,
	);
});
