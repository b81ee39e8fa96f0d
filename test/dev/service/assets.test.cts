import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { useLocalService } from '../../support/service.cts';

const service = useLocalService();

const assetsDir = join(__dirname, '..', '..', '..', 'dev', 'service', 'assets');

describe('GET /__assets/<name>', () => {
	it.each([
		['pixel-2x3.png', 'image/png'],
		['grey-4x5.jpg', 'image/jpeg'],
		['dot-1x1.gif', 'image/gif'],
		['clear-3x2.webp', 'image/webp'],
		['not-an-image.txt', 'text/plain; charset=utf-8'],
	])('serves %s as %s without auth', async (name, contentType) => {
		const response = await fetch(`${service().origin}/__assets/${name}`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe(contentType);
		const bytes = Buffer.from(await response.arrayBuffer());
		expect(bytes.equals(readFileSync(join(assetsDir, name)))).toBe(true);
		expect(bytes.length).toBeLessThan(2048);
	});

	it('is not recorded in the request log', async () => {
		await fetch(`${service().origin}/__assets/dot-1x1.gif`);
		expect(await service().requests()).toEqual([]);
	});

	it.each([
		['GET', '/__assets/missing.png'],
		['GET', '/__assets/'],
		['GET', '/__assets/.hidden.png'],
		['GET', '/__assets/..%2Fconfig.json'],
		['GET', '/__assets/../config.json'],
		['POST', '/__assets/dot-1x1.gif'],
	])('%s %s is a 404', async (method, path) => {
		// A path option goes out as written (a URL would have its dot segments resolved).
		const { hostname, port } = new URL(service().origin);
		const status = await new Promise<number>((resolve, reject) => {
			const req = request({ hostname, port, path, method }, (res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			});
			req.on('error', reject);
			req.end();
		});
		expect(status).toBe(404);
	});
});
