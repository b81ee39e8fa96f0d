/**
 * Runs nodes through n8n-core's real execution engine (WorkflowExecute, LoadOptionsContext,
 * CredentialTestContext) with an in-memory credential store. HTTP goes over the real network.
 * Importing it prepares n8n-core for the test file: a temporary user folder, removed after the file's tests.
 */
import {
	CredentialTestContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ExecutionStatus,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	NodeExecutionHint,
	IRun,
	IRunData,
	IWorkflowSettings,
	StructuredChunk,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import { CredentialsStore } from './credentials-store.cts';
import { additionalData, ready } from './runtime.cts';

export { binaryBytes, disposeEngine } from './runtime.cts';

export interface EngineOptions {
	/** Node types by type name; versioned ones (as n8n-nodes-base ships them) are resolved per node's typeVersion. */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: Record<string, ICredentialType>;
	/** Decrypted data per credential type name. */
	credentials?: Record<string, IDataObject>;
}

/** Node-level settings, as on the node's Settings tab. */
export type NodeSettings = Pick<
	INode,
	| 'onError'
	| 'continueOnFail'
	| 'alwaysOutputData'
	| 'executeOnce'
	| 'retryOnFail'
	| 'maxTries'
	| 'waitBetweenTries'
>;

export interface RunNodeArgs {
	type: string;
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	settings?: NodeSettings;
	/**
	 * Stored credential types the node uses without declaring them (the HTTP Request node's Generic
	 * Credential Type), selected as a user would; the declared ones are selected anyway.
	 */
	credentials?: string[];
	typeVersion?: number;
	signal?: AbortSignal;
	/** When given, the run streams: `this.isStreaming()` is true and every `this.sendChunk` lands here. */
	onChunk?: (chunk: StructuredChunk) => void;
}

/**
 * The run's error as n8n records it (IRun.data.resultData.error): a plain copy of the thrown error's
 * fields (message, description, httpCode, context, name …), not an Error instance.
 */
export type EngineError = Error & {
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
	/** `configuration-node` for a sub-node's own failure, which n8n names as the node to open. */
	functionality?: string;
};

export interface RunNodeResult {
	/** `outputs[outputIndex]` = the items the node sent to that output. */
	outputs: INodeExecutionData[][];
	error?: EngineError;
	status: ExecutionStatus;
	/** The hints the node added to its run (`addExecutionHints`), as the editor shows them above its output. */
	hints: NodeExecutionHint[];
}

export interface RunWorkflowArgs {
	workflow: { nodes: INode[]; connections: IConnections; settings?: IWorkflowSettings };
	startNode: string;
	items?: INodeExecutionData[];
	signal?: AbortSignal;
	onChunk?: (chunk: StructuredChunk) => void;
}

export interface RunWorkflowResult {
	runData: IRunData;
	error?: EngineError;
	status: ExecutionStatus;
}

export interface Engine {
	runNode(args: RunNodeArgs): Promise<RunNodeResult>;
	runWorkflow(args: RunWorkflowArgs): Promise<RunWorkflowResult>;
	listSearch(args: {
		type: string;
		method: string;
		filter?: string;
		paginationToken?: string;
		parameters?: INodeParameters;
	}): Promise<INodeListSearchResult>;
	credentialTest(args: {
		type: string;
		method: string;
		credentialType: string;
		data: IDataObject;
	}): Promise<INodeCredentialTestResult>;
	/** How often nodes loaded a credential of this type since the engine was made (in n8n, a database read each time). */
	credentialReads(type: string): number;
}
export function createEngine(options: EngineOptions): Engine {
	const store = new CredentialsStore(options.credentialTypes, { ...options.credentials });
	let executions = 0;

	const nodeType = (name: string, version?: number): INodeType => {
		const type = options.nodeTypes[name];
		if (type === undefined) throw new Error(`Unknown node type "${name}"`);
		return NodeHelpers.getVersionedNodeType(type, version);
	};
	const nodeTypes: INodeTypes = {
		getByName: (name) => {
			const type = options.nodeTypes[name];
			if (type === undefined) throw new Error(`Unknown node type "${name}"`);
			return type;
		},
		getByNameAndVersion: nodeType,
		getKnownTypes: () => ({}),
	};

	/** Selects the stored credentials of `types` (else of every credential type the node declares), as a user would. */
	const withCredentials = (
		node: INode,
		types = (nodeType(node.type, node.typeVersion).description.credentials ?? []).map(
			({ name }) => name,
		),
	): INode => {
		const credentials = { ...node.credentials };
		for (const name of types) {
			if (store.has(name)) credentials[name] ??= { id: name, name };
		}
		return { ...node, credentials };
	};

	const makeNode = (type: string, parameters: INodeParameters, typeVersion?: number): INode => {
		const { description } = nodeType(type);
		const versions = [description.version].flat();
		return withCredentials({
			id: 'node-under-test',
			name: description.defaults.name ?? description.displayName,
			type,
			typeVersion: typeVersion ?? Math.max(...versions),
			position: [0, 0],
			parameters,
		});
	};

	const runWorkflow = async ({
		workflow: json,
		startNode,
		items = [{ json: {} }],
		signal,
		onChunk,
	}: RunWorkflowArgs) => {
		await ready();
		const nodes = json.nodes.map((node) => withCredentials(node));
		const workflow = new Workflow({
			id: 'test-workflow',
			name: 'Test workflow',
			nodes,
			connections: json.connections,
			active: false,
			nodeTypes,
			settings: { executionOrder: 'v1', ...json.settings },
		});
		const start = workflow.getNode(startNode);
		if (start === null) throw new Error(`No node named "${startNode}" in the workflow`);

		const executionId = String(++executions);
		const hooks = new ExecutionLifecycleHooks('manual', executionId, {
			id: workflow.id,
			name: 'Test workflow',
			active: false,
			isArchived: false,
			activeVersionId: null,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes,
			connections: json.connections,
		});
		const finished = new Promise<IRun>((resolve) =>
			hooks.addHandler('workflowExecuteAfter', resolve),
		);
		if (onChunk) hooks.addHandler('sendChunk', onChunk);

		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: start, data: { main: [items] }, source: null }],
			},
		});
		const data = additionalData(store, {
			hooks,
			executionId,
			workflowId: workflow.id,
			streamingEnabled: !!onChunk,
		});
		const execution = new WorkflowExecute(data, 'manual', runExecutionData).processRunExecutionData(
			workflow,
		);
		const cancel = () => execution.cancel();
		if (signal?.aborted) cancel();
		signal?.addEventListener('abort', cancel, { once: true });

		// The first workflowExecuteAfter is what n8n reports (on cancel: right away); the run itself is
		// awaited too so that nothing of it outlives the test.
		const [run] = await Promise.all([finished, execution]).finally(() =>
			signal?.removeEventListener('abort', cancel),
		);
		const { runData, error } = run.data.resultData;
		return { runData, error: error as EngineError | undefined, status: run.status };
	};

	return {
		runWorkflow,

		credentialReads: (type) => store.reads.get(type) ?? 0,

		async runNode({
			type,
			parameters,
			items,
			settings,
			credentials = [],
			typeVersion,
			signal,
			onChunk,
		}) {
			const node = withCredentials(
				{ ...makeNode(type, parameters, typeVersion), ...settings },
				credentials,
			);
			const { runData, error, status } = await runWorkflow({
				workflow: { nodes: [node], connections: {} },
				startNode: node.name,
				items,
				signal,
				onChunk,
			});
			const task = runData[node.name]?.[0];
			const outputs = (task?.data?.main ?? []).map((output) => output ?? []);
			return { outputs, error, status, hints: task?.hints ?? [] };
		},

		async listSearch({ type, method, filter, paginationToken, parameters = {} }) {
			await ready();
			const search = nodeType(type).methods?.listSearch?.[method];
			if (search === undefined)
				throw new Error(`Node type "${type}" has no listSearch method "${method}"`);
			const workflow = new Workflow({
				nodes: [makeNode(type, parameters)],
				connections: {},
				active: false,
				nodeTypes,
			});
			const [node] = Object.values(workflow.nodes);
			const data = additionalData(store, { currentNodeParameters: node.parameters });
			const context = new LoadOptionsContext(
				workflow,
				node,
				data,
				`parameters.${locatorFor(nodeType(type), method)}`,
			);
			return await workflow.expression.withIsolate(
				async () => await search.call(context, filter, paginationToken),
			);
		},

		async credentialTest({ type, method, credentialType, data }) {
			await ready();
			const test = nodeType(type).methods?.credentialTest?.[method];
			if (test === undefined)
				throw new Error(`Node type "${type}" has no credentialTest method "${method}"`);
			const credentials = {
				id: credentialType,
				name: credentialType,
				type: credentialType,
				data: store.decrypted(credentialType, data),
			};
			return await test.call(new CredentialTestContext(), credentials);
		},
	};
}

/** The name of the resource locator parameter that searches with `method` (n8n passes its path to the context). */
function locatorFor(type: INodeType, method: string) {
	const locator = type.description.properties.find((property) =>
		property.modes?.some((mode) => mode.typeOptions?.searchListMethod === method),
	);
	return locator?.name ?? method;
}
