/** `npm run try` beside a running try: the service already on the examples' port is used only when it is the local service. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { isLocalService } from '../../../dev/service-client/local-service.cts';
import { closedPort, useLocalService } from '../../support/service.cts';

const service = useLocalService();

test('the local service: used', async () => {
	expect(await isLocalService(service().origin)).toBe(true);
});

test('another HTTP server, or nothing, on the port: not the local service', async () => {
	const server = createServer((_request, response) => response.end('{"data":[]}'));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const { port } = server.address() as AddressInfo;
		expect(await isLocalService(`http://127.0.0.1:${port}`)).toBe(false);
	} finally {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
	expect(await isLocalService(`http://127.0.0.1:${await closedPort()}`)).toBe(false);
});
