/** /__redirect: a gateway that moved, to the same origin or to another (the other name of the loopback address). */
import { keys, useLocalService } from '../../support/service.cts';
import { send } from './client.cts';

const service = useLocalService();

const localhostOrigin = () => service().origin.replace('127.0.0.1', 'localhost');

describe('redirects', () => {
	test.each([
		['same-origin', 307, () => `${service().origin}/v1/models?x=1`],
		['other-origin', 308, () => `${localhostOrigin()}/v1/models?x=1`],
	])(
		'%s: %i with the Location of the same path, recorded with what the client sent',
		async (where, status, location) => {
			const reply = await send(`${service().origin}/__redirect/${status}/${where}/v1/models?x=1`, {
				headers: { Authorization: `Bearer ${keys.default}` },
				redirect: 'manual',
			});
			expect(reply.status).toBe(status);
			expect(reply.headers.get('location')).toBe(location());
			expect(reply.json).toEqual({ moved_to: location() });
			const [recorded] = await service().requests();
			expect(recorded).toMatchObject({ path: `/__redirect/${status}/${where}/v1/models?x=1` });
			expect(recorded.headers.authorization).toBe(`Bearer ${keys.default}`);
		},
	);

	test('from localhost, other-origin is 127.0.0.1', async () => {
		const reply = await send(`${localhostOrigin()}/__redirect/302/other-origin/v1/models`, {
			redirect: 'manual',
		});
		expect(reply.headers.get('location')).toBe(`${service().origin}/v1/models`);
	});

	test('the service answers on both names: a client that follows the redirect meets the /v1 checks there', async () => {
		const reply = await send(`${service().origin}/__redirect/307/other-origin/v1/models`, {
			headers: { Authorization: `Bearer ${keys.default}` },
		});
		// fetch drops Authorization on a redirect to another origin, as a browser does.
		expect(reply.status).toBe(401);
		const [, followed] = await service().requests();
		expect(followed.headers.host).toBe(new URL(localhostOrigin()).host);
		expect(followed.headers).not.toHaveProperty('authorization');
	});

	test.each([
		'/__redirect/200/same-origin/v1/models',
		'/__redirect/307/elsewhere/v1/models',
		'/__redirect/307/same-origin',
	])('%s: 404', async (path) => {
		expect((await send(`${service().origin}${path}`, { redirect: 'manual' })).status).toBe(404);
	});
});
