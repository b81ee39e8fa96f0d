/**
 * Headers the package or n8n's transport sets itself, and why another value cannot replace them (those
 * copied from a curl command: with them every request would fail as if the service could not be reached).
 * Read by the credential's check of Extra Headers (`extra-headers.ts`) and by the failure words that tell a
 * header to add there (`failures/service-signs.ts`).
 */
const TRANSPORT_OWN = "n8n's transport sets it for each request";
export const OWN_HEADERS: Record<string, string> = {
	authorization: 'the API Key field is sent as Authorization: Bearer <key>',
	'content-type': 'every request body is JSON (application/json)',
	'content-length': `the length of each request body is counted when it is sent (${TRANSPORT_OWN})`,
	'transfer-encoding': `how a body is sent is decided when it is sent (${TRANSPORT_OWN})`,
	expect: `requests are sent whole, never after a 100 Continue (${TRANSPORT_OWN})`,
	connection: `connections are kept open or closed by the transport (${TRANSPORT_OWN})`,
	'keep-alive': `connections are kept open or closed by the transport (${TRANSPORT_OWN})`,
	upgrade: 'requests are plain HTTP, never upgraded to another protocol',
};

/** The headers Extra Headers cannot set, as they are written: `Authorization`, `Content-Type`, ... */
export function ownHeaderNames(): string[] {
	return Object.keys(OWN_HEADERS).map((name) =>
		name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase()),
	);
}

/** Whether Extra Headers may set `name` (not a header the package or the transport sets itself). */
export const mayBeExtraHeader = (name: string) => OWN_HEADERS[name.toLowerCase()] === undefined;
