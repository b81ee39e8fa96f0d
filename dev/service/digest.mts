/** How the service names bytes it was sent, so that a test can tell which file arrived: SHA-256, 12 hex digits. */
import { createHash } from 'node:crypto';

export function digest(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}
