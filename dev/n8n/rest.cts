import { randomUUID } from 'node:crypto';

import { parse as parseFlatted } from 'flatted';

import type { WorkflowToImport } from './import.cts';

/** What n8n recorded of each node's runs in an execution, by node name. */
export type RunData = Record<
	string,
	Array<{
		data?: Record<string, Array<Array<{ json: Record<string, unknown> }>>>;
		/** What a sub-node's run took in (its log's input), by connection type. */
		inputOverride?: Record<string, Array<Array<{ json: Record<string, unknown> }>>>;
		/** The error the run ended with. */
		error?: { message: string; description?: string };
	}>
>;

/** The parts of n8n's internal REST API (what the editor calls) the tests and `npm run try` need: login, creating credentials and workflows, executions, publishing a workflow, a credential's test, a node's "From list", the node descriptions, n8n Chat (its agents, a message sent as the Chat page sends it), clearing an n8n that test files share. */
export class N8nRest {
	private constructor(
		readonly url: string,
		readonly cookie: string,
	) {}

	static async login(url: string, owner: { email: string; password: string }): Promise<N8nRest> {
		const response = await fetch(`${url}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
		});
		if (!response.ok)
			throw new Error(`POST /rest/login answered ${response.status}: ${await response.text()}`);
		const cookie = response.headers
			.getSetCookie()
			.map((header) => header.split(';')[0])
			.join('; ');
		return new N8nRest(url, cookie);
	}

	private async send(method: string, path: string, body?: unknown): Promise<Response> {
		return await fetch(`${this.url}/rest${path}`, {
			method,
			headers: { cookie: this.cookie, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	/** Whether n8n did it; false on 409 (n8n busy with it: ask again), other failures throw. */
	private async attempt(method: string, path: string): Promise<boolean> {
		const response = await this.send(method, path);
		if (response.status === 409) return false;
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /rest${path} answered ${response.status}: ${text}`);
		return true;
	}

	private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.send(method, path, body);
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /rest${path} answered ${response.status}: ${text}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/**
	 * The workflow's executions (the newest 100; those that ended so, when `status` is given), newest first, with
	 * how each ended (`success`, `error`, `crashed`, `running`...).
	 */
	async executions(
		workflowId: string,
		status?: string[],
	): Promise<Array<{ id: string; status: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status }));
		const { results } = await this.request<{ results: Array<{ id: string; status: string }> }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return results;
	}

	/** What an execution recorded: each node's runs, and the error that ended it (n8n sends it flatted). */
	async result(
		executionId: string,
	): Promise<{ runData: RunData; error?: { message: string; description?: string } }> {
		const { data } = await this.request<{ data: string }>('GET', `/executions/${executionId}`);
		return (parseFlatted(data) as { resultData: Awaited<ReturnType<N8nRest['result']>> })
			.resultData;
	}

	/** What the workflow's newest execution recorded. */
	private async lastResult(workflowId: string): ReturnType<N8nRest['result']> {
		const [newest] = await this.executions(workflowId);
		return await this.result(newest.id);
	}

	/** The run data of the workflow's newest execution. */
	async lastRunData(workflowId: string): Promise<RunData> {
		return (await this.lastResult(workflowId)).runData;
	}

	/** The error that ended the workflow's newest execution, as n8n recorded it; undefined when none did. */
	async lastError(
		workflowId: string,
	): Promise<{ message: string; description?: string } | undefined> {
		return (await this.lastResult(workflowId)).error;
	}

	/** Creates a credential in the owner's project (n8n encrypts `data`); n8n chooses its id, which it returns. */
	async createCredential(credential: {
		name: string;
		type: string;
		data: Record<string, string>;
	}): Promise<string> {
		return (await this.request<{ id: string }>('POST', '/credentials', credential)).id;
	}

	/** Creates a workflow in the owner's project, with the id given, unpublished. */
	async createWorkflow(workflow: WorkflowToImport): Promise<void> {
		await this.request('POST', '/workflows', workflow);
	}

	/**
	 * Deletes every workflow (with its executions) and every credential of the instance, and switches n8n Chat off:
	 * an n8n shared by test files as it was when it started. Workflows are archived first (which unpublishes them),
	 * as n8n 2.x deletes archived workflows only, and answers 409 while the unpublishing is under way (asked again
	 * every 100 ms then, for at most 30 s).
	 */
	async clear(): Promise<void> {
		const workflows = await this.request<Array<{ id: string }>>('GET', '/workflows');
		for (const { id } of workflows) await this.request('POST', `/workflows/${id}/archive`, {});
		const deadline = Date.now() + 30_000;
		for (const { id } of workflows) {
			while (!(await this.attempt('DELETE', `/workflows/${id}`))) {
				if (Date.now() > deadline)
					throw new Error(`DELETE /rest/workflows/${id} still answered 409 after 30 s`);
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		}
		for (const { id } of await this.request<Array<{ id: string }>>('GET', '/credentials'))
			await this.request('DELETE', `/credentials/${id}`);
		await this.setChat(false);
	}

	/** Publishes (activates) the workflow's current version: its webhooks go live. */
	async publish(workflowId: string): Promise<void> {
		const { versionId } = await this.request<{ versionId: string }>(
			'GET',
			`/workflows/${workflowId}`,
		);
		await this.request('POST', `/workflows/${workflowId}/activate`, { versionId });
	}

	/**
	 * Switches n8n Chat on or off, as Settings > Chat > Enable Chat does (n8n 2.x ships it off: the Chat page stays
	 * empty and its API answers 403 "Chat Hub is disabled"). Kept in n8n's database.
	 */
	async setChat(enabled: boolean): Promise<void> {
		await this.request('PUT', '/chat/enabled', { enabled });
	}

	/** The workflow agents the Chat page lists: published workflows whose Chat Trigger is available in n8n Chat. */
	async chatAgents(): Promise<Array<{ name: string; description: string; workflowId: string }>> {
		const providers = await this.request<
			Record<
				string,
				{ models: Array<{ name: string; description: string; model: { workflowId: string } }> }
			>
		>('POST', '/chat/models', { credentials: {} });
		return providers.n8n.models.map(({ name, description, model }) => ({
			name,
			description,
			workflowId: model.workflowId,
		}));
	}

	/**
	 * Sends a message to a workflow agent as the Chat page does (a new conversation, the files as base64
	 * attachments); n8n answers at once and runs the workflow, whose reply the page reads over its push
	 * connection (not read here: the workflow's executions tell what it did).
	 */
	async sendChatMessage(
		workflowId: string,
		message: string,
		attachments: Array<{ fileName: string; mimeType: string; data: string }>,
	): Promise<void> {
		await this.request('POST', '/chat/conversations/send', {
			messageId: randomUUID(),
			sessionId: randomUUID(),
			message,
			model: { provider: 'n8n', workflowId },
			previousMessageId: null,
			credentials: {},
			attachments,
			timeZone: 'UTC',
		});
	}

	/** Runs a credential's test as the editor does when it is saved: the test's status and message. */
	async testCredential(credentials: {
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ status: string; message: string }> {
		return await this.request('POST', '/credentials/test', { credentials });
	}

	/**
	 * A node's "From list" as the editor asks for it: the names its list-search method `methodName` gives for the
	 * resource locator `path` (e.g. `model`), with `credentials` (`{ type: { id, name } }`).
	 */
	async listSearch(
		node: { type: string; version: number },
		path: string,
		methodName: string,
		credentials: Record<string, { id: string; name: string }>,
	): Promise<string[]> {
		const results = await this.listEntries(node, path, methodName, credentials);
		return results.map((result) => result.name);
	}

	/** The same list's entries, names and descriptions, with the node's other fields `parameters` (its Operation). */
	async listEntries(
		node: { type: string; version: number },
		path: string,
		methodName: string,
		credentials: Record<string, { id: string; name: string }>,
		parameters: Record<string, unknown> = {},
	): Promise<Array<{ name: string; description?: string }>> {
		const { results } = await this.request<{
			results: Array<{ name: string; description?: string }>;
		}>('POST', '/dynamic-node-parameters/resource-locator-results', {
			path,
			methodName,
			nodeTypeAndVersion: { name: node.type, version: node.version },
			currentNodeParameters: parameters,
			credentials,
		});
		return results;
	}

	/** The node descriptions n8n serves the editor and its AI workflow builder (`/types/nodes.json`). */
	async nodeTypes<T>(): Promise<T[]> {
		const response = await fetch(`${this.url}/types/nodes.json`, {
			headers: { cookie: this.cookie },
		});
		if (!response.ok) throw new Error(`GET /types/nodes.json answered ${response.status}`);
		return (await response.json()) as T[];
	}
}
