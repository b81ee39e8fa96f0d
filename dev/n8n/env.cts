/** The environment of an n8n process run by this project: isolated, offline, on chosen ports. */

/**
 * Keeps n8n off the internet: no telemetry, version checks, templates, MCP server list, nor the
 * list of verified community nodes that the editor's nodes panel fetches from n8n's API.
 */
const OFFLINE: Record<string, string> = {
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	EXTERNAL_FRONTEND_HOOKS_URLS: '',
	N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
	N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
};

export interface N8nEnvOptions {
	/** N8N_USER_FOLDER: n8n keeps its database, settings and community packages in `<folder>/.n8n`. */
	userFolder: string;
	port: number;
	/** The task runner broker's port: every n8n process on the machine needs its own. */
	brokerPort: number;
	owner: { email: string; passwordHash: string };
	/** Extra variables, e.g. queue mode's. */
	extra?: Record<string, string>;
	/** n8n's major version, when not 2: n8n 1.x has no MCP server list to turn off (and refuses to start when told to). */
	n8nMajor?: number;
}

export function n8nEnv(options: N8nEnvOptions): NodeJS.ProcessEnv {
	// Not inherited: jest sets NODE_ENV=test, with which `n8n start` exits at once without a word.
	const { NODE_ENV, ...inherited } = process.env;
	return {
		...inherited,
		...OFFLINE,
		...(options.n8nMajor === 1 ? {} : { N8N_DISABLED_MODULES: 'mcp-registry' }),
		N8N_USER_FOLDER: options.userFolder,
		N8N_PORT: String(options.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		// A fixed key: credentials imported by one run decrypt in the next.
		N8N_ENCRYPTION_KEY: 'n8n-nodes-chat-completions-local-example-key',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// Stop within seconds on Ctrl+C (the default waits 30 s for running executions).
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: options.owner.email,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: options.owner.passwordHash,
		...options.extra,
	};
}
