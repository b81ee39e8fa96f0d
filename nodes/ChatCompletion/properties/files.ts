import type { INodeProperties } from 'n8n-workflow';

import { FIELDS } from '../fields';

/**
 * The file fields of a user message (Simple mode, and user rows of Messages): shown while the Files switch is
 * on, in every node version (no workflow saved before them has any to lose).
 */

/** The switch's name, saved in workflows. */
const FILES_SWITCH = 'withFiles';

function filesSwitch(withWhat: string, show: Record<string, string[]>): INodeProperties {
	return {
		displayName: FIELDS.withFiles.label,
		name: FILES_SWITCH,
		type: 'boolean',
		default: false,
		description: `Whether to send files from the binary data of the input item with ${withWhat}, e.g. a PDF`,
		displayOptions: { show },
	};
}

function fileField(show: Record<string, Array<string | boolean>>): INodeProperties {
	return {
		displayName: FIELDS.fileBinaryProperties.label,
		name: 'fileBinaryProperties',
		type: 'string',
		default: '',
		placeholder: 'e.g. data',
		description:
			"Names of the input item's binary properties that hold files for the model to read, e.g. a PDF from HTTP Request, Read Files from Disk or a form upload, separated by commas. Options > Allowed File Types and Max File Size (MB) say which files may go.",
		displayOptions: { show: { ...show, [FILES_SWITCH]: [true] } },
	};
}

/** Simple mode: the switch, and the file field while it is on. */
export const simpleFileProperties: INodeProperties[] = [
	filesSwitch('the user prompt', { promptType: ['simple'] }),
	fileField({ promptType: ['simple'] }),
];

/** A row of Messages: the switch on user rows, and the file field on user rows while it is on. */
export const rowFileProperties: INodeProperties[] = [
	filesSwitch('this message', { role: ['user'] }),
	fileField({ role: ['user'] }),
];
