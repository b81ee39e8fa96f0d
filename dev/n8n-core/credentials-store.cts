/**
 * The engine's credentials: an in-memory stand-in for n8n's CredentialsHelper that fills in defaults and
 * applies a credential type's `authenticate` as n8n does.
 */
import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression, NodeHelpers } from 'n8n-workflow';

/** Credential data as n8n's CredentialsHelper.applyDefaultsAndOverwrites returns it: defaults filled in. */
function withDefaults(properties: INodeProperties[], data: IDataObject) {
	return NodeHelpers.getNodeParameters(
		properties,
		data as INodeParameters,
		true,
		false,
		null,
		null,
	) as IDataObject;
}

/**
 * The options n8n adds to every credential type that has `authenticate` (when its loader reads the types):
 * where the credential may be used from the HTTP Request node, and the domains a list allows.
 */
const DOMAIN_RESTRICTIONS: INodeProperties[] = [
	{
		displayName: 'Allowed HTTP Request Domains',
		name: 'allowedHttpRequestDomains',
		type: 'options',
		options: [
			{ name: 'All', value: 'all' },
			{ name: 'Specific Domains', value: 'domains' },
			{ name: 'None', value: 'none' },
		],
		default: 'all',
	},
	{ displayName: 'Allowed Domains', name: 'allowedDomains', type: 'string', default: '' },
];

export class CredentialsStore extends ICredentialsHelper {
	/** How often each credential type was loaded for a node (n8n: a database read and a decryption each). */
	readonly reads = new Map<string, number>();

	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: Record<string, IDataObject>,
	) {
		super();
	}

	has(type: string) {
		return type in this.data;
	}

	decrypted(type: string, data = this.data[type]) {
		if (data === undefined) throw new Error(`No credentials of type "${type}" in the test engine`);
		return withDefaults(
			this.getCredentialsProperties(type),
			data,
		) as ICredentialDataDecryptedObject;
	}

	private type(name: string) {
		const type = this.types[name];
		if (type === undefined) throw new Error(`Unknown credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		return (this.type(name).extends ?? []).flatMap((parent) => [
			parent,
			...this.getParentTypes(parent),
		]);
	}

	isCredentialUsableByNode() {
		return true;
	}

	/** As n8n's CredentialsHelper: a function is called, a generic definition has its expressions resolved. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) throw new Error('Generic authentication needs the workflow and node');
			const resolve = (value: string) =>
				isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			const target = requestOptions as unknown as Record<
				string,
				Record<string, unknown> | undefined
			>;
			for (const [section, entries] of Object.entries(authenticate.properties)) {
				const resolved = (target[section] ??= {});
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					resolved[resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(details: { id: string | null; name: string }, type: string) {
		const credentials = new Credentials(details, type);
		await credentials.setData((this.data[type] ?? {}) as ICredentialDataDecryptedObject);
		return credentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_details: unknown,
		type: string,
	) {
		this.reads.set(type, (this.reads.get(type) ?? 0) + 1);
		return this.decrypted(type);
	}

	async updateCredentials(_details: unknown, type: string, data: ICredentialDataDecryptedObject) {
		this.data[type] = data;
	}

	async updateCredentialsOauthTokenData(
		_details: unknown,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.data[type] = { ...this.data[type], oauthTokenData: data.oauthTokenData };
	}

	getCredentialsProperties(name: string): INodeProperties[] {
		const type = this.type(name);
		const properties: INodeProperties[] = [];
		for (const parent of type.extends ?? []) {
			NodeHelpers.mergeNodeProperties(properties, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(properties, type.properties);
		if (type.authenticate !== undefined) {
			NodeHelpers.mergeNodeProperties(properties, DOMAIN_RESTRICTIONS);
		}
		return properties;
	}
}
