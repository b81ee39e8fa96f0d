/** The multipart/form-data body the engine makes: exact bytes, escaped names, files unchanged. */
import { multipartBody } from '../../../engine/media/multipart';

test('text fields and a file, in order, between boundaries, with the Content-Type naming the boundary', () => {
	const file = Buffer.from([0x00, 0x0d, 0x0a, 0xff, 0x2d, 0x2d]);
	const { contentType, body } = multipartBody(
		[
			{ name: 'model', value: 'whisper-1' },
			{ name: 'file', file: { bytes: file, fileName: 'talk.mp3', mimeType: 'audio/mpeg' } },
			{ name: 'language', value: 'fr' },
		],
		'XyZ',
	);
	expect(contentType).toBe('multipart/form-data; boundary=XyZ');
	expect(body).toEqual(
		Buffer.concat([
			Buffer.from(
				'--XyZ\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n' +
					'--XyZ\r\nContent-Disposition: form-data; name="file"; filename="talk.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n',
			),
			file,
			Buffer.from(
				'\r\n--XyZ\r\nContent-Disposition: form-data; name="language"\r\n\r\nfr\r\n--XyZ--\r\n',
			),
		]),
	);
	expect(Buffer.isBuffer(body)).toBe(true);
});

test('text is UTF-8; quotes and line breaks in names are percent-encoded as browsers do', () => {
	const { body } = multipartBody(
		[
			{ name: 'prompt', value: 'Un café ☕' },
			{
				name: 'image[]',
				file: { bytes: Buffer.from('x'), fileName: 'my "cat"\r\n.png', mimeType: 'image/png' },
			},
		],
		'b',
	);
	const text = body.toString('utf8');
	expect(text).toContain('\r\n\r\nUn café ☕\r\n');
	expect(text).toContain('name="image[]"; filename="my %22cat%22%0D%0A.png"\r\n');
});

test('a MIME type with a line break (or none) is sent as application/octet-stream', () => {
	const part = (mimeType: string) =>
		multipartBody(
			[{ name: 'file', file: { bytes: Buffer.from('a'), fileName: 'a.wav', mimeType } }],
			'b',
		).body.toString('latin1');
	expect(part('audio/wav\r\nX-Injected: 1')).toContain(
		'Content-Type: application/octet-stream\r\n',
	);
	expect(part('')).toContain('Content-Type: application/octet-stream\r\n');
});

test('each body gets its own random boundary', () => {
	const first = multipartBody([{ name: 'a', value: '1' }]).contentType;
	const second = multipartBody([{ name: 'a', value: '1' }]).contentType;
	expect(first).toMatch(/^multipart\/form-data; boundary=----n8nChatCompletions[0-9a-f]{24}$/);
	expect(first).not.toBe(second);
});
