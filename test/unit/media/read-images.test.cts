/** The images of a reply: data[] of the image endpoints and message.images of a chat reply, typed by their bytes. */
import { MediaReplyError, ServiceError } from '../../../engine/failures/errors';
import {
	downloadedType,
	IMAGE_HEAD_BYTES,
	messageImages,
	readImages,
} from '../../../engine/media/read-images';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { pngHeader } from '../../support/images.cts';
import { replyWith as reply, subNodeWords } from '../../support/sub-node-replies.cts';
import { endpointAt } from '../../support/endpoints.cts';

const WORDS = subNodeWords('the Chat Completions Media node', []);
const png = pngHeader(2, 3);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8L')]);
const b64 = (bytes: Buffer) => bytes.toString('base64');

/** What the user reads when the reply fails, for model `flux-2`. */
function failure(body: unknown, status = 200) {
	try {
		readImages(reply(body, status), endpointAt('images/generations'));
	} catch (error) {
		const { message, description } = describeProblem(error, {
			words: WORDS,
			model: 'flux-2',
			baseUrl: 'https://gw.example.com/v1',
		});
		return { error, message, description };
	}
	throw new Error('the reply was read');
}

test('b64_json images in order, each typed by its bytes, with revised_prompt when sent', () => {
	const images = readImages(
		reply({
			created: 1,
			data: [
				{ b64_json: b64(jpeg), revised_prompt: 'A fox, in watercolour' },
				{ b64_json: b64(png) },
				{ b64_json: b64(webp), revised_prompt: null },
			],
		}),
		endpointAt('images/generations'),
	);
	expect(images).toEqual([
		{
			bytes: jpeg,
			type: { mimeType: 'image/jpeg', extension: 'jpeg' },
			revisedPrompt: 'A fox, in watercolour',
		},
		{ bytes: png, type: { mimeType: 'image/png', extension: 'png' } },
		{ bytes: webp, type: { mimeType: 'image/webp', extension: 'webp' } },
	]);
});

test('a url is reported to download, not fetched; a data URL in url is decoded', () => {
	const images = readImages(
		reply({
			data: [
				{ url: 'https://cdn.example.com/a.png?sig=1', revised_prompt: 'r' },
				{ url: `data:image/png;base64,${b64(png)}` },
			],
		}),
		endpointAt('images/edits'),
	);
	expect(images).toEqual([
		{ url: 'https://cdn.example.com/a.png?sig=1', revisedPrompt: 'r' },
		{ bytes: png, type: { mimeType: 'image/png', extension: 'png' } },
	]);
});

test.each([
	[
		'no image (data: [])',
		{ created: 1, data: [] },
		'The image model "flux-2" answered 200 without any image',
		/^Providers answer this way when their filter removed the images: reword the prompt/,
	],
	[
		'no data',
		{ created: 1 },
		'The image model "flux-2" answered 200 without a list of images: {"created":1}',
		/^Nothing of this reply is used/,
	],
	[
		'an HTML page',
		'<html><head><title>Console</title></head></html>',
		'The image model "flux-2" answered 200 with an HTML page instead of a list of images: Console',
		/^Nothing/,
	],
	[
		'an entry without b64_json or url',
		{ data: [{ b64_json: b64(png) }, { revised_prompt: 'x' }] },
		'The image model "flux-2" sent image 2 without b64_json or url',
		/^Nothing/,
	],
	[
		'data that is no image',
		{ data: [{ b64_json: Buffer.from('%PDF-1.4').toString('base64') }] },
		'The image model "flux-2" sent image 1 whose data is not a PNG, JPEG, GIF or WebP image',
		/^Nothing/,
	],
	[
		'a URL of another scheme',
		{ data: [{ url: 'ftp://x/a.png' }] },
		'The image model "flux-2" sent image 1 whose URL "ftp://x/a.png" is neither an http(s) nor a data URL',
		/^Nothing/,
	],
])('%s is an error naming the model, never an empty success', (_name, body, message, fix) => {
	const said = failure(body);
	expect(said.error).toBeInstanceOf(MediaReplyError);
	expect(said.message).toBe(message);
	expect(said.description).toMatch(fix);
});

test('an error status, or an error inside a 200, is the service error it says, marked with the endpoint', () => {
	const refused = failure({ error: { message: 'Invalid prompt', code: 'bad' } }, 400)
		.error as ServiceError;
	expect(refused).toBeInstanceOf(ServiceError);
	expect(refused.endpoint?.path).toBe('images/generations');
	expect(failure({ error: { message: 'upstream failed' } }).error).toBeInstanceOf(ServiceError);
});

test('message.images of a chat reply: data URLs decoded, http(s) URLs reported, none when there are none', () => {
	const message = {
		role: 'assistant',
		content: 'Here you are',
		images: [
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${b64(png)}` } },
			{ type: 'image_url', image_url: { url: 'https://cdn.example.com/b.jpg' } },
			{ type: 'image_url', image_url: `data:image/jpeg;base64,${b64(jpeg)}` },
		],
	};
	expect(messageImages(message)).toEqual([
		{ bytes: png, type: { mimeType: 'image/png', extension: 'png' } },
		{ url: 'https://cdn.example.com/b.jpg' },
		{ bytes: jpeg, type: { mimeType: 'image/jpeg', extension: 'jpeg' } },
	]);
	expect(messageImages({ role: 'assistant', content: 'text only' })).toEqual([]);
	expect(messageImages({ role: 'assistant', content: 'x', images: [] })).toEqual([]);
});

test.each([
	[
		'images that are no list',
		{ images: 'x' },
		/sent message.images that is the text "x", not a list/,
	],
	[
		'an entry without a URL',
		{ images: [{ type: 'image_url' }] },
		/sent image 1 of message.images without image_url.url/,
	],
	[
		'a data URL that is no image',
		{ images: [{ image_url: { url: 'data:image/png;base64,aGVsbG8=' } }] },
		/sent image 1 of message.images whose data is not a PNG/,
	],
])('message.images with %s is an error', (_name, message, words) => {
	expect(() => messageImages(message)).toThrow(words);
});

test('a downloaded image is typed by its first bytes; anything else names the URL without its query', () => {
	expect(downloadedType(png.subarray(0, IMAGE_HEAD_BYTES), 'https://cdn.example.com/a')).toEqual({
		mimeType: 'image/png',
		extension: 'png',
	});
	expect(() =>
		downloadedType(Buffer.from('<html>'), 'https://cdn.example.com/a?X-Amz-Signature=s3cr3t'),
	).toThrow(
		'The image model sent an image URL (https://cdn.example.com/a) whose data is not a PNG, JPEG, GIF or WebP image',
	);
});

test('a data URL whose base64 is broken into lines is decoded', () => {
	const lines = b64(png).replace(/.{16}/g, '$&\n');
	const [image] = readImages(
		reply({ data: [{ url: `data:image/png;base64,${lines}` }] }),
		endpointAt('images/generations'),
	);
	expect(image).toEqual({ bytes: png, type: { mimeType: 'image/png', extension: 'png' } });
});
