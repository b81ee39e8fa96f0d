import { deflateSync } from 'node:zlib';

import { tinyPdf } from '../../support/pdf.cts';
import { keys, useLocalService } from '../../support/service.cts';
import { chat, expectInvalidRequest } from './client.cts';

const service = useLocalService();

const pdf = tinyPdf(['Invoice 42: total (due) 99 EUR', 'Payable by June']);
const dataUri = (bytes: Buffer, type = 'application/pdf') =>
	`data:${type};base64,${bytes.toString('base64')}`;
const filePart = (file: Record<string, unknown>) => ({ type: 'file', file });

function ask(content: unknown[], model = 'echo-1', key = keys.default) {
	return chat(service(), key, { model, messages: [{ role: 'user', content }] });
}

describe('file parts', () => {
	it("a PDF: the models answer from the text its pages show, under the file's name", async () => {
		const reply = await ask([
			{ type: 'text', text: 'What is due?' },
			filePart({ filename: 'invoice.pdf', file_data: dataUri(pdf) }),
		]);
		expect(reply.status).toBe(200);
		expect(reply.json.choices[0].message.content).toBe(
			'What is due?\ninvoice.pdf: Invoice 42: total (due) 99 EUR\nPayable by June',
		);
	});

	it('a PDF whose content stream is compressed (FlateDecode), and a text file', async () => {
		const content = 'BT /F1 12 Tf 72 720 Td [(Com) -20 (pressed)] Tj <4869> Tj ET';
		const stream = deflateSync(Buffer.from(content, 'latin1'));
		const compressed = Buffer.concat([
			Buffer.from(
				`%PDF-1.4\n1 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
			),
			stream,
			Buffer.from('\nendstream\nendobj\n%%EOF\n'),
		]);
		const reply = await ask([
			filePart({ file_data: dataUri(compressed) }),
			filePart({ filename: 'notes.txt', file_data: dataUri(Buffer.from('Hello'), 'text/plain') }),
		]);
		expect(reply.json.choices[0].message.content).toBe('File: Compressed\nHi\nnotes.txt: Hello');
	});

	it.each([
		[
			'not a data URI',
			filePart({ file_data: 'https://example.com/a.pdf' }),
			'file.file_data',
			/a data URI must have the form/,
		],
		[
			'no PDF behind application/pdf',
			filePart({ file_data: dataUri(Buffer.from('hello')) }),
			'file.file_data',
			/the data is not a PDF \(it does not start with %PDF-\)/,
		],
		[
			'a type the service does not read',
			filePart({ file_data: dataUri(Buffer.from('PK'), 'application/zip') }),
			'file.file_data',
			/files of type application\/zip are not supported: send a PDF or a text file/,
		],
		[
			'a file id',
			filePart({ file_id: 'file-1' }),
			'file.file_id',
			/'file_id' is not supported here/,
		],
		['no file object', { type: 'file' }, 'file', /a file part needs 'file'/],
		[
			'a filename that is no text',
			filePart({ filename: 1, file_data: dataUri(pdf) }),
			'file.filename',
			/'filename' must be a string/,
		],
	])('%s: 400 invalid_file naming the field', async (_name, part, field, message) => {
		const reply = await ask([part]);
		expectInvalidRequest(reply, `messages[0].content[0].${field}`, message, 'invalid_file');
	});

	it('no-files-1 (fallback key) refuses file parts as a model without file input', async () => {
		const reply = await ask([filePart({ file_data: dataUri(pdf) })], 'no-files-1', keys.fallback);
		expectInvalidRequest(
			reply,
			'messages[0].content[0]',
			/^The model `no-files-1` does not support file input$/,
			'model_not_supported',
		);
	});
});
