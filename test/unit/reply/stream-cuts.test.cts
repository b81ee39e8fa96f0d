/**
 * Property: however the network cuts a body (also inside a multi-byte UTF-8 character), the assembled
 * Completion is the same. Seeded, so each run cuts at the same places.
 */
import {
	assemble,
	chunk,
	decodePieces,
	HEADER,
	randomCuts,
	seededRandom,
	sse,
} from '../../support/sse.cts';

const CUTTINGS_PER_STREAM = 200;
const words = ['Olá', ' wörld', ' 👋🏽', ' 東京', ' naïve', ' ∑x²', ' «ok»', ' 🇵🇹', ' e\u0301', '\n'];

const text = sse(
	[
		chunk({ role: 'assistant', content: '' }),
		...words.map((word) => chunk({ reasoning_content: `${word}?` })),
		...words.concat(words).map((word) => chunk({ role: 'assistant', content: word })),
		chunk({}, { finish_reason: 'stop' }),
		{
			...HEADER,
			choices: [],
			usage: { prompt_tokens: 9, completion_tokens: 20, total_tokens: 29 },
		},
	],
	{ eol: '\n' },
);

const tools =
	': OPENROUTER PROCESSING\r\n\r\n' +
	sse(
		[
			chunk({
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						index: 0,
						id: 'call_ü',
						type: 'function',
						function: { name: 'wetter', arguments: '{"stadt":' },
					},
				],
			}),
			chunk({
				tool_calls: [
					{
						index: 1,
						id: 'call_時',
						type: 'function',
						function: { name: 'zeit', arguments: '{"zone":"' },
					},
				],
			}),
			chunk({ tool_calls: [{ index: 0, function: { arguments: '"Zürich 🏔"}' } }] }),
			chunk({ tool_calls: [{ index: 1, function: { arguments: '東京"}' } }] }),
			chunk(
				{},
				{
					finish_reason: 'tool_calls',
					usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
				},
			),
		],
		{ eol: '\r\n' },
	);

const multiLine = words
	.map((word) => JSON.stringify(chunk({ content: word }), null, 1))
	.concat(JSON.stringify(chunk({ content: '.' }, { finish_reason: 'length' })))
	.map((json) => `event: message\rdata:${json.split('\n').join('\rdata:')}\r\r`)
	.join('');

describe.each([
	['text, reasoning and usage with multi-byte characters (LF)', text],
	['parallel tool calls with multi-byte arguments (CRLF, comments)', tools],
	['multi-line data, event names, no space after data: (CR)', multiLine],
])('%s', (_name, body) => {
	const bytes = new TextEncoder().encode(body);
	const expected = assemble(body);

	test(`${CUTTINGS_PER_STREAM} random cuttings give the same Completion and the same text deltas`, () => {
		const random = seededRandom(bytes.length);
		let insideCharacter = 0;
		for (let cutting = 0; cutting < CUTTINGS_PER_STREAM; cutting++) {
			// Mostly a few cuts, as a network makes; every fourth cutting as many cuts as bytes.
			const count = 1 + Math.floor(random() * (cutting % 4 === 0 ? bytes.length : 40));
			const positions = randomCuts(bytes.length, count, random);
			const { completion, deltas } = assemble(decodePieces(bytes, positions));
			expect(completion).toEqual(expected.completion);
			expect(deltas.join('')).toBe(expected.deltas.join(''));
			insideCharacter += positions.filter((position) => (bytes[position] & 0xc0) === 0x80).length;
		}
		// Continuation bytes (10xxxxxx) are the inside of a multi-byte character.
		expect(insideCharacter).toBeGreaterThan(CUTTINGS_PER_STREAM);
	});
});

test('the streams under test are complete replies', () => {
	expect(assemble(text).completion.choices[0].message).toMatchObject({
		content: words.concat(words).join(''),
		reasoning_content: words.map((word) => `${word}?`).join(''),
	});
	expect(assemble(tools).completion.choices[0].message?.tool_calls).toEqual([
		{
			id: 'call_ü',
			type: 'function',
			function: { name: 'wetter', arguments: '{"stadt":"Zürich 🏔"}' },
		},
		{ id: 'call_時', type: 'function', function: { name: 'zeit', arguments: '{"zone":"東京"}' } },
	]);
	expect(assemble(multiLine).completion.choices[0]).toMatchObject({
		message: { content: `${words.join('')}.` },
		finish_reason: 'length',
	});
});
