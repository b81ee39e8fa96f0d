/**
 * n8n-core as the engine needs it: its own DI container, a temporary user folder (prepared on import,
 * removed after the test file or by disposeEngine()), binary data and the expression engine, and the
 * additional data every execution context receives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import type { Container as DiContainer } from '@n8n/di';
import { BinaryDataService, ExternalSecretsProxy } from 'n8n-core';
import type { IBinaryData, ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

/** n8n-core's own copy of its DI container: npm may hoist another version of @n8n/di to the top. */
const { Container } = require(
	require.resolve('@n8n/di', { paths: [dirname(require.resolve('n8n-core'))] }),
) as {
	Container: typeof DiContainer;
};

/*
 * n8n-core builds its settings (user folder, encryption key, binary data storage, log level) from the
 * environment when its DI container first needs them, so the environment is prepared on import.
 */
const userFolder = mkdtempSync(join(tmpdir(), 'n8n-engine-'));
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_LOG_LEVEL ??= 'silent';
/** Releases n8n-core's expression engine and removes the temporary user folder. */
export async function disposeEngine(): Promise<void> {
	await Expression.disposeExpressionEngine();
	rmSync(userFolder, { recursive: true, force: true });
}
// Under jest, each test file cleans up after itself; scripts call disposeEngine() themselves.
if (typeof afterAll === 'function') afterAll(disposeEngine);

/**
 * Binary data in the configured mode (n8n's default: filesystem, under the user folder), and the
 * expression engine: n8n's legacy one unless N8N_EXPRESSION_ENGINE=vm (n8n's production default), which
 * loads isolated-vm by dynamic import and so needs NODE_OPTIONS=--experimental-vm-modules under jest.
 */
async function setUp() {
	await Container.get(BinaryDataService).init();
	if (process.env.N8N_EXPRESSION_ENGINE === 'vm') {
		await Expression.initExpressionEngine({
			engine: 'vm',
			poolSize: 1,
			maxCodeCacheSize: 1024,
			bridgeTimeout: 5000,
			bridgeMemoryLimit: 128,
		});
	}
}

/** The bytes of binary data a node gave, wherever n8n stored them (the filesystem by default). */
export async function binaryBytes(data: IBinaryData): Promise<Buffer> {
	return await Container.get(BinaryDataService).getAsBuffer(data);
}

let setup: Promise<void> | undefined;
export const ready = () => (setup ??= setUp());

const unavailable = (feature: string) => async () => {
	throw new Error(`${feature} is not available in the test engine`);
};

export function additionalData(
	credentialsHelper: ICredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	const baseUrl = 'http://127.0.0.1:5678';
	return {
		credentialsHelper,
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: unavailable('Executing sub-workflows'),
		startRunnerTask: unavailable('The task runner (Code node)'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: `${baseUrl}/`,
		formBaseUrl: `${baseUrl}/form`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
		...extra,
	};
}
