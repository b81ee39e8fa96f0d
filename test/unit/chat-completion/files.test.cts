/** The pure pieces of files in Chat Completion: Allowed File Types, the file parts of a request, the placeholders. */
import { allowedFileTypes } from '../../../nodes/ChatCompletion/request/files';
import { itemRequest } from '../../../nodes/ChatCompletion/request/item-request';
import type { ChatInput } from '../../../nodes/ChatCompletion/request/input';
import { placeholderNames } from '../../../nodes/ChatCompletion/request/placeholders';
import { conformanceErrors } from '../../support/conformance.cts';
import { placeholderOf } from '../../support/images.cts';
import { tinyPdf } from '../../support/pdf.cts';

const pdf = tinyPdf(['Invoice 42']);
const pdfUri = `data:application/pdf;base64,${pdf.toString('base64')}`;
const withFile = (extra: Partial<ChatInput> = {}, mimeType = 'application/pdf'): ChatInput => ({
	model: 'echo-1',
	promptType: 'simple',
	prompt: 'Summarise',
	fileBinaryProperties: 'data',
	binaries: { available: ['data'], loaded: { data: { bytes: pdf, mimeType, fileName: 'a.pdf' } } },
	options: {},
	...extra,
});
const failure = (input: ChatInput): string => {
	try {
		itemRequest(input);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error('no error');
};

test('Allowed File Types: MIME types and wildcards, separated by commas or spaces, in lowercase', () => {
	expect(allowedFileTypes(' application/PDF,text/*\n*/* ')).toEqual([
		'application/pdf',
		'text/*',
		'*/*',
	]);
	expect(allowedFileTypes('')).toEqual([]);
	expect(() => allowedFileTypes('application/pdf, .csv')).toThrow(
		'Options > Allowed File Types: ".csv" is not a MIME type',
	);
});

test('a file goes as a file part after the text; the conversation keeps a placeholder, the body the data', () => {
	const { body, conversation } = itemRequest(withFile());
	expect(body.messages[0].content).toEqual([
		{ type: 'text', text: 'Summarise' },
		{ type: 'file', file: { filename: 'a.pdf', file_data: pdfUri } },
	]);
	expect(conversation[0].content).toEqual([
		{ type: 'text', text: 'Summarise' },
		{ type: 'file', file: { filename: 'a.pdf', file_data: placeholderOf('data', pdf) } },
	]);
	expect(conformanceErrors(body)).toEqual([]);
	// A file alone is a prompt too.
	expect(itemRequest(withFile({ prompt: '' })).body.messages[0].content).toHaveLength(1);
});

test('Allowed File Types defaults to PDFs and plain text, wildcards allow more; Max File Size is checked', () => {
	const csv = (options: Record<string, unknown>) =>
		withFile({
			options,
			binaries: {
				available: ['data'],
				loaded: { data: { bytes: Buffer.from('a,b'), mimeType: 'text/csv', fileName: 'x.csv' } },
			},
		});
	expect(failure(csv({}))).toMatch(/is of type text\/csv, which Options > Allowed File Types/);
	expect(itemRequest(csv({ allowedFileTypes: 'text/*' })).body.messages[0].content).toHaveLength(2);
	const padded = Buffer.concat([pdf, Buffer.alloc(2000)]);
	expect(
		failure(
			withFile({
				options: { maxFileSize: 0.001 },
				binaries: { available: ['data'], loaded: { data: { bytes: padded, fileName: 'a.pdf' } } },
			}),
		),
	).toBe(
		'File Binary Properties: binary property "data" (a.pdf) is 0.0 MB, above the limit of 0.0 MB',
	);
	expect(failure(withFile({ options: { maxFileSize: 0 } }))).toBe(
		'Max File Size (MB): must be from 0.001 to 1024, got 0',
	);
});

describe('file parts in Messages JSON', () => {
	const json = (part: unknown, extra: Partial<ChatInput> = {}): ChatInput => ({
		model: 'echo-1',
		promptType: 'json',
		messagesJson: [{ role: 'user', content: [part] }],
		options: {},
		...extra,
	});

	test('a file part with its data passes as it is; a placeholder is read from the binary data', () => {
		const part = { type: 'file', file: { filename: 'b.pdf', file_data: pdfUri } };
		expect(itemRequest(json(part)).body.messages[0].content).toEqual([part]);
		const named = { type: 'file', file: { filename: 'kept.pdf', file_data: 'n8n-binary:data' } };
		const { binaries } = withFile();
		expect(itemRequest(json(named, { binaries })).body.messages[0].content).toEqual([
			{ type: 'file', file: { filename: 'kept.pdf', file_data: pdfUri } },
		]);
	});

	test('a file part without file_data is refused, naming the part', () => {
		expect(failure(json({ type: 'file', file: { file_id: 'file-1' } }))).toBe(
			'Messages (JSON): messages[0].content[0].file must be an object with file_data, got an object',
		);
	});

	test('the placeholders of images and files name the binary properties to load', () => {
		expect(
			placeholderNames(
				JSON.stringify([
					{
						role: 'user',
						content: [
							{ type: 'image_url', image_url: { url: 'n8n-binary:photo' } },
							{ type: 'file', file: { file_data: 'n8n-binary:data' } },
							{ type: 'file', file: { file_data: pdfUri } },
						],
					},
				]),
			),
		).toEqual(['photo', 'data']);
	});
});
