/** Jest globalSetup of `npm run test:n8n1`: n8n 1.x installed into the cache (once) and this package packed. */
import { installN8nAndPack } from '../e2e/support/global-setup.cts';

/** The maintained n8n 1.x release the package is checked in. */
export const N8N_1X_VERSION = '1.123.81';

export default async function globalSetup(): Promise<void> {
	await installN8nAndPack(N8N_1X_VERSION);
}
