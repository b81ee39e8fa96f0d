/**
 * Files in the Chat Completion node: a PDF or text file in the item's binary data goes as a file part, which the
 * local service checks and answers from; what is too large or of a type not allowed fails its own item before
 * anything is sent; a model that cannot read files gets its own fix and falls back; the output's `messages`
 * keep a placeholder that the next turn resolves from the binary data.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { checkEveryRequestConforms } from '../support/conformance.cts';
import { placeholderOf, pngHeader } from '../support/images.cts';
import { tinyPdf } from '../support/pdf.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

checkEveryRequestConforms(service);

const invoice = tinyPdf(['Invoice 42', 'Total due: 99 EUR']);

const fileItem = (
	bytes: Buffer,
	mimeType: string,
	fileName: string,
	json: IDataObject = {},
): INodeExecutionData => ({
	json,
	binary: { data: { data: bytes.toString('base64'), mimeType, fileName } },
});

/** Simple mode with the Files switch on and File Binary Properties `data`. */
const withFile = (model = 'echo-1', options: INodeParameters = {}): INodeParameters =>
	simpleParameters('Summarise', model, {
		withFiles: true,
		fileBinaryProperties: 'data',
		options,
	});

/** The next turn of a conversation: Messages JSON from the previous Chat Completion node's output. */
const NEXT_TURN: INodeParameters = {
	model: { __rl: true, mode: 'id', value: 'echo-1' },
	promptType: 'json',
	messagesJson: '={{ $json.messages }}',
};

/** The file parts the service received, request by request. */
async function sentFileParts(): Promise<IDataObject[][]> {
	const requests = await service().requests();
	return requests.map((request) => {
		const { messages } = request.body as { messages: Array<{ content: unknown }> };
		return messages.flatMap(({ content }) =>
			Array.isArray(content)
				? (content as IDataObject[]).filter((part) => part.type === 'file')
				: [],
		);
	});
}

afterEach(async () => {
	// Whatever a test did, the service never received a placeholder.
	expect(JSON.stringify(await service().requests())).not.toContain('n8n-binary:');
});

test('a PDF in binary data goes as a file part beside the text, and the model answers from its text', async () => {
	const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: withFile(),
		items: [fileItem(invoice, 'application/pdf', 'invoice.pdf')],
	});
	expect(error).toBeUndefined();
	const [item] = outputs[0];
	expect(item.json.content).toBe('Summarise\ninvoice.pdf: Invoice 42\nTotal due: 99 EUR');
	expect(await sentFileParts()).toEqual([
		[
			{
				type: 'file',
				file: {
					filename: 'invoice.pdf',
					file_data: `data:application/pdf;base64,${invoice.toString('base64')}`,
				},
			},
		],
	]);
	// The output's messages name the binary property, which goes on with the item.
	expect((item.json.messages as IDataObject[])[0]).toEqual({
		role: 'user',
		content: [
			{ type: 'text', text: 'Summarise' },
			{
				type: 'file',
				file: { filename: 'invoice.pdf', file_data: placeholderOf('data', invoice) },
			},
		],
	});
	expect(item.binary?.data).toMatchObject({ fileName: 'invoice.pdf', mimeType: 'application/pdf' });
});

test('a text file and a PDF named as something else: the PDF is known by its bytes; a user row carries files', async () => {
	const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: {
			model: { __rl: true, mode: 'id', value: 'echo-1' },
			promptType: 'messages',
			messages: {
				values: [
					{
						role: 'user',
						content: 'Compare',
						withFiles: true,
						fileBinaryProperties: 'data, notes',
					},
				],
			},
		},
		items: [
			{
				json: {},
				binary: {
					data: {
						data: invoice.toString('base64'),
						mimeType: 'application/octet-stream',
						fileName: 'download',
					},
					notes: {
						data: Buffer.from('Paid on 3 May').toString('base64'),
						mimeType: 'text/plain; charset=utf-8',
						fileName: 'notes.txt',
					},
				},
			},
		],
	});
	expect(error).toBeUndefined();
	expect(outputs[0][0].json.content).toBe(
		'Compare\ndownload: Invoice 42\nTotal due: 99 EUR\nnotes.txt: Paid on 3 May',
	);
	const [parts] = await sentFileParts();
	expect(parts.map((part) => (part.file as IDataObject).file_data as string)).toEqual([
		expect.stringMatching(/^data:application\/pdf;base64,/),
		`data:text/plain;base64,${Buffer.from('Paid on 3 May').toString('base64')}`,
	]);
});

test('too large, a type not allowed, a fake PDF, an image, a missing property: each fails its own item before sending, the others answer', async () => {
	const big = Buffer.concat([invoice, Buffer.alloc(2 * 1024 * 1024)]);
	const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: withFile('echo-1', { maxFileSize: 1 }),
		items: [
			fileItem(big, 'application/pdf', 'scan.pdf'),
			fileItem(Buffer.from('PK\u0003\u0004'), 'application/zip', 'archive.zip'),
			fileItem(Buffer.from('<html>Not found</html>'), 'application/pdf', 'report.pdf'),
			fileItem(pngHeader(2, 2), 'image/png', 'photo.png'),
			{ json: {}, binary: { file: fileItem(invoice, 'application/pdf', 'a.pdf').binary!.data } },
			fileItem(invoice, 'application/pdf', 'invoice.pdf'),
		],
		settings: { onError: 'continueRegularOutput' },
	});
	expect(outputs[0].map((item) => item.json.error ?? item.json.content)).toEqual([
		'File Binary Properties: binary property "data" (scan.pdf) is 2.0 MB, above the limit of 1.0 MB (item 0)',
		'File Binary Properties: binary property "data" (archive.zip) is of type application/zip, which Options > Allowed File Types does not allow (application/pdf, text/plain) (item 1)',
		'File Binary Properties: binary property "data" (report.pdf) is named a PDF, but its bytes are an HTML page (a PDF starts with %PDF-) (item 2)',
		'File Binary Properties: binary property "data" (photo.png) is an image (item 3)',
		'File Binary Properties: the item has no binary property "data" (it has: file) (item 4)',
		'Summarise\ninvoice.pdf: Invoice 42\nTotal due: 99 EUR',
	]);
	const descriptions = outputs[0]
		.slice(0, 4)
		.map((item) => (item.json.error_details as IDataObject).description);
	expect(descriptions).toEqual([
		expect.stringMatching(/raise Options > Max File Size \(MB\)/),
		expect.stringMatching(
			/Add application\/zip to Options > Allowed File Types .* convert the file to PDF or text/,
		),
		expect.stringMatching(/Pass the PDF file itself/),
		expect.stringMatching(/Name it in Image Binary Properties/),
	]);
	expect(await service().requests()).toHaveLength(1);
});

test('Continue (using error output): the file refused goes to the error output, the other item answers', async () => {
	const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: withFile(),
		items: [
			fileItem(Buffer.from('PK\u0003\u0004'), 'application/zip', 'archive.zip'),
			fileItem(invoice, 'application/pdf', 'invoice.pdf'),
		],
		settings: { onError: 'continueErrorOutput' },
	});
	expect(error).toBeUndefined();
	const [replies, errors] = outputs;
	expect(replies.map((item) => [item.json.content, item.pairedItem])).toEqual([
		['Summarise\ninvoice.pdf: Invoice 42\nTotal due: 99 EUR', { item: 1 }],
	]);
	expect(errors.map((item) => [item.json.error, item.pairedItem])).toEqual([
		[
			'File Binary Properties: binary property "data" (archive.zip) is of type application/zip, which Options > Allowed File Types does not allow (application/pdf, text/plain) (item 0)',
			{ item: 0 },
		],
	]);
});

test('Allowed File Types takes MIME types and wildcards; an entry that is none names the option', async () => {
	const csv = Buffer.from('city,celsius\nParis,15');
	const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: withFile('echo-1', { allowedFileTypes: '={{ $json.allowed }}' }),
		items: [
			fileItem(csv, 'text/csv', 'weather.csv', { allowed: 'application/pdf, text/*' }),
			fileItem(csv, 'text/csv', 'weather.csv', { allowed: 'pdf, csv' }),
		],
		settings: { onError: 'continueRegularOutput' },
	});
	expect(outputs[0].map((item) => item.json.error ?? item.json.content)).toEqual([
		'Summarise\nweather.csv: city,celsius\nParis,15',
		'Options > Allowed File Types: "pdf" is not a MIME type (item 1)',
	]);
});

test('a model that cannot read files: its own fix, and Fallback Models moves on', async () => {
	const engine = engineWith(keys.fallback, service().baseUrl);
	const refused = await engine.runNode({
		type: NODE_TYPE,
		parameters: withFile('no-files-1'),
		items: [fileItem(invoice, 'application/pdf', 'invoice.pdf')],
		settings: { onError: 'continueRegularOutput' },
	});
	const [failed] = refused.outputs[0];
	expect(failed.json.error).toBe(
		'The service rejected the request: The model `no-files-1` does not support file input (item 0)',
	);
	expect((failed.json.error_details as IDataObject).description).toMatch(
		/This model cannot read PDFs or other files: choose one that can \(or add it to Fallback Models\)/,
	);

	const fallback = await engine.runNode({
		type: NODE_TYPE,
		parameters: withFile('no-files-1', { fallbackModels: 'echo-1' }),
		items: [fileItem(invoice, 'application/pdf', 'invoice.pdf')],
	});
	expect(fallback.error).toBeUndefined();
	expect(fallback.outputs[0][0].json).toMatchObject({
		content: 'Summarise\ninvoice.pdf: Invoice 42\nTotal due: 99 EUR',
		model: expect.stringMatching(/^echo-1/),
		attempts: [
			{
				model: 'no-files-1',
				error:
					'The service rejected the request: The model `no-files-1` does not support file input',
			},
		],
	});
});

/** A first turn that sends invoice.pdf from the binary property "data": the engine, for the next turn, and its run. */
async function invoiceTurn() {
	const engine = engineWith(keys.default, service().baseUrl);
	const first = await engine.runNode({
		type: NODE_TYPE,
		parameters: withFile(),
		items: [fileItem(invoice, 'application/pdf', 'invoice.pdf')],
	});
	return { engine, first };
}

test('the next turn (Prompt: JSON) reads the file from the binary data and sends the same bytes', async () => {
	const { engine, first } = await invoiceTurn();
	const second = await engine.runNode({
		type: NODE_TYPE,
		parameters: NEXT_TURN,
		items: [
			...first.outputs[0],
			{ json: first.outputs[0][0].json },
			{
				...first.outputs[0][0],
				binary: { data: fileItem(pngHeader(1, 1), 'image/png', 'x.png').binary!.data },
			},
		],
		settings: { onError: 'continueRegularOutput' },
	});
	expect(second.outputs[0].map((item) => item.json.error ?? 'answered')).toEqual([
		'answered',
		'Messages (JSON): messages[0].content[1] is the file "n8n-binary:data", but the item has no binary property "data" (it has no binary data) (item 1)',
		// Another file in the property: named as such before anything is checked of it.
		`Messages (JSON): messages[0].content[1] is the file "invoice.pdf" of ${invoice.length.toLocaleString('en-US')} bytes that binary property "data" held when the conversation was written, but "data" now holds another file (x.png, 33 bytes); it is not sent in its place (item 2)`,
	]);
	expect((second.outputs[0][1].json.error_details as IDataObject).description).toMatch(
		/keep that binary data on the item/,
	);
	const [sentFirst, sentSecond] = await sentFileParts();
	expect(sentSecond).toEqual(sentFirst);
	expect(JSON.stringify(second.outputs[0][0].json.messages)).toContain('n8n-binary:data');
});

test("a loop that loads the next file into the same property: the earlier turn's file is never sent as the new one", async () => {
	const { engine, first } = await invoiceTurn();
	const [answered] = first.outputs[0];
	const contract = tinyPdf(['Contract 7', 'Term: 12 months']);
	const contractData = fileItem(contract, 'application/pdf', 'contract.pdf').binary!.data;
	const second = await engine.runNode({
		type: NODE_TYPE,
		parameters: NEXT_TURN,
		items: [
			// The next file took the earlier one's property (a loop over files).
			{ ...answered, binary: { data: contractData } },
			// The next file went to a property of its own: the earlier one is still there.
			{ ...answered, binary: { ...answered.binary, contract: contractData } },
		],
		settings: { onError: 'continueRegularOutput' },
	});
	expect(second.outputs[0].map((item) => item.json.error ?? 'answered')).toEqual([
		`Messages (JSON): messages[0].content[1] is the file "invoice.pdf" of ${invoice.length.toLocaleString('en-US')} bytes that binary property "data" held when the conversation was written, but "data" now holds another file (contract.pdf, ${contract.length.toLocaleString('en-US')} bytes); it is not sent in its place (item 0)`,
		'answered',
	]);
	expect((second.outputs[0][0].json.error_details as IDataObject).description).toMatch(
		/in a binary property of its own/,
	);
	// Two requests in all, each with the invoice's bytes; the contract was never sent as the invoice.
	const sent = await sentFileParts();
	expect(sent).toHaveLength(2);
	expect(sent[1]).toEqual(sent[0]);
	expect(JSON.stringify(sent)).not.toContain(contract.toString('base64'));
});
