/** The instance owner, set by environment variables (no setup form): the login of "Try it" and of the browser test. */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';

export const OWNER = { email: 'owner@example.com', password: 'Try-chat-completions-1' };

/** The owner with the bcrypt hash n8n expects in N8N_INSTANCE_OWNER_PASSWORD_HASH, made by n8n's own bcryptjs. */
export function ownerWithHash(n8nBin: string): { email: string; passwordHash: string } {
	const bcrypt = createRequire(realpathSync(n8nBin))('bcryptjs') as {
		hashSync(text: string, rounds: number): string;
	};
	return { email: OWNER.email, passwordHash: bcrypt.hashSync(OWNER.password, 10) };
}
