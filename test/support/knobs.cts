/** Node options that pass the local service's `x_local` test knobs through Extra Body. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

export function knobs(
	xLocal: IDataObject,
	options: INodeParameters = {},
): { options: INodeParameters } {
	return { options: { ...options, extraBody: JSON.stringify({ x_local: xLocal }) } };
}
