/**
 * jest runs each test file in a realm of its own (a VM context), and modules it loads, undici among them,
 * belong to that realm, while Node's global `fetch` belongs to the outer one. Errors of n8n's dispatcher
 * (undici loaded in the test's realm: a lost connection, n8n's SSRF refusal) then reach Node's `fetch` as
 * no `Error` of its realm, and it wraps them in a new Error that keeps only the text: no code, no cause, none
 * of n8n's marks. In n8n everything is one realm. Here global `fetch` is the `fetch` of the undici that
 * n8n's dispatcher comes from, loaded in the test's realm, so that errors reach the transport as in n8n.
 */
import { fetch as realmFetch } from 'undici';

globalThis.fetch = realmFetch as unknown as typeof globalThis.fetch;
