/** `npm run try -- --port N`: n8n's port, when given (its task runner broker takes the next one). */
export function portArgument(argv: string[]): number | undefined {
	const at = argv.indexOf('--port');
	if (at === -1) return undefined;
	const port = Number(argv[at + 1]);
	if (!Number.isInteger(port) || port < 1024 || port > 65534) {
		throw new Error(
			`--port takes a free port from 1024 to 65534 for n8n (its task runner broker takes the next one), e.g. npm run try -- --port 5700; got "${argv[at + 1] ?? ''}"`,
		);
	}
	return port;
}
