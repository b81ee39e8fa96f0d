/**
 * The catalogue's rows (engine/models/gateway-tags.ts): what each gateway shape tells of a model, the catalogue
 * made from the answers (the list with every modality, the bare list when the gateway refuses the parameter),
 * which node may use a model, and the prices in words.
 */
import type { CatalogueModel } from '../../../engine/models/catalogue';
import { readCatalogue, usableFor } from '../../../engine/models/catalogue';
import { listEntryTags, TAG_SOURCES } from '../../../engine/models/gateway-tags';
import { priceWords } from '../../../engine/models/price-words';
import type { HttpReply, PathGet } from '../../../engine/transport/outgoing';

const [NEW_API_PRICING, LITELLM_MODEL_INFO] = TAG_SOURCES;

const reply = (status: number, json: unknown): HttpReply =>
	({ status, headers: {}, text: JSON.stringify(json) }) as unknown as HttpReply;

describe('the tags of a GET /models entry', () => {
	it("reads OpenRouter's modalities, limits and prices per token as per 1M tokens", () => {
		expect(
			listEntryTags({
				id: 'openai/gpt-4o-mini',
				architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
				context_length: 128000,
				top_provider: { max_completion_tokens: 16384 },
				pricing: { prompt: '0.00000015', completion: '0.0000006', request: '0' },
			}),
		).toEqual({
			kinds: ['chat'],
			tells: expect.arrayContaining(['chat', 'embeddings', 'transcription']),
			contextLength: 128000,
			maxOutputTokens: 16384,
			pricing: { inputPerMillion: 0.15, outputPerMillion: 0.6, perCall: undefined },
		});
	});

	it('drops the zero token prices of a model OpenRouter prices per call', () => {
		expect(
			listEntryTags({
				id: 'image-1',
				architecture: { output_modalities: ['image'] },
				pricing: { prompt: '0', completion: '0', request: '0.04' },
			})?.pricing,
		).toEqual({ perCall: 0.04 });
	});

	it("reads new-api's endpoint types, which tell no audio kind", () => {
		expect(listEntryTags({ id: 'bge', supported_endpoint_types: ['jina-rerank'] })).toEqual({
			kinds: ['rerank'],
			tells: ['chat', 'embeddings', 'rerank', 'image', 'video'],
		});
	});

	it('tells nothing of a plain entry', () => {
		expect(listEntryTags({ id: 'gpt-4o', owned_by: 'openai' })).toBeUndefined();
	});
});

describe("new-api's /api/pricing", () => {
	it("converts the ratios as its pricing page does, with the default group's ratio", () => {
		const tags = NEW_API_PRICING.read({
			data: [
				{ model_name: 'chat', quota_type: 0, model_ratio: 0.075, completion_ratio: 4 },
				{ model_name: 'image', quota_type: 1, model_price: 0.04 },
			],
			group_ratio: { default: 2, vip: 1 },
		});
		expect(tags?.get('chat')?.pricing).toEqual({ inputPerMillion: 0.3, outputPerMillion: 1.2 });
		expect(tags?.get('image')?.pricing).toEqual({ perCall: 0.08 });
	});

	it('takes a group ratio of 1 when none is given', () => {
		const tags = NEW_API_PRICING.read({
			data: [{ model_name: 'chat', quota_type: 0, model_ratio: 1.25, completion_ratio: 4 }],
		});
		expect(tags?.get('chat')?.pricing).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 });
	});
});

describe("LiteLLM's /model/info", () => {
	it('reads each mode, the limits and the costs', () => {
		const tags = LITELLM_MODEL_INFO.read({
			data: [
				{
					model_name: 'whisper',
					model_info: { mode: 'audio_transcription', input_cost_per_second: 0.0001 },
				},
				{
					model_name: 'embed',
					model_info: { mode: 'embedding', max_input_tokens: 8192, input_cost_per_token: 2e-8 },
				},
			],
		});
		expect(tags?.get('whisper')).toMatchObject({
			kinds: ['transcription'],
			pricing: { perSecond: 0.0001 },
		});
		expect(tags?.get('embed')).toMatchObject({
			kinds: ['embeddings'],
			contextLength: 8192,
			pricing: { inputPerMillion: 0.02 },
		});
	});
});

describe('the catalogue', () => {
	/** A gateway answering `answers` by path; any other path is a 404. */
	function gateway(answers: Record<string, HttpReply>): { get: PathGet; asked: string[] } {
		const asked: string[] = [];
		const get: PathGet = async ({ path }, read) => {
			asked.push(path);
			return read(answers[path] ?? reply(404, { error: { message: 'Not found' } }));
		};
		return { get, asked };
	}

	it('asks for every modality, and the bare list when the gateway refuses the parameter', async () => {
		const refusing = gateway({
			'models?output_modalities=all': reply(400, { error: { message: 'Unknown parameter' } }),
			models: reply(200, { data: [{ id: 'b' }, { id: 'a' }] }),
		});
		const models = await readCatalogue(refusing.get);
		expect(models.map((model) => model.id)).toEqual(['a', 'b']);
		expect(refusing.asked).toEqual(
			expect.arrayContaining(['models?output_modalities=all', 'models']),
		);
		expect(models[0]).toMatchObject({ kinds: [], tells: [], source: 'GET /models' });
	});

	it('does not ask again when the key is refused', async () => {
		const refused = gateway({
			'models?output_modalities=all': reply(401, { error: { message: 'Invalid key' } }),
		});
		await expect(readCatalogue(refused.get)).rejects.toMatchObject({ status: 401 });
		expect(refused.asked).not.toContain('models');
	});

	it("takes the list's tags first, then new-api's pricing, and names the sources", async () => {
		const { get } = gateway({
			'models?output_modalities=all': reply(200, {
				data: [{ id: 'chat', supported_endpoint_types: ['openai'] }],
			}),
			'api/pricing': reply(200, {
				data: [{ model_name: 'chat', quota_type: 0, model_ratio: 0.075, completion_ratio: 4 }],
			}),
		});
		expect(await readCatalogue(get)).toEqual([
			{
				id: 'chat',
				kinds: ['chat'],
				tells: ['chat', 'embeddings', 'rerank', 'image', 'video'],
				pricing: { inputPerMillion: 0.15, outputPerMillion: 0.6 },
				source: 'GET /models + GET /api/pricing',
			},
		]);
	});
});

const model = (more: Partial<CatalogueModel>): CatalogueModel => ({
	id: 'm',
	kinds: [],
	tells: [],
	source: 'GET /models',
	...more,
});

test('a node may use a model of its kind, and a model whose kind the source cannot tell', () => {
	const newApiChat = model({ kinds: ['chat'], tells: ['chat', 'embeddings'] });
	expect(usableFor(newApiChat, 'chat')).toBe(true);
	expect(usableFor(newApiChat, 'embeddings')).toBe(false);
	expect(usableFor(newApiChat, 'transcription')).toBe(true);
	expect(usableFor(model({}), 'rerank')).toBe(true);
});

test.each([
	[
		{ pricing: { inputPerMillion: 0.15, outputPerMillion: 0.6 }, contextLength: 128000 },
		'$0.15 in / $0.60 out per 1M tokens, 128k context',
	],
	[{ pricing: { inputPerMillion: 0.02 }, contextLength: 8192 }, '$0.02 per 1M tokens, 8k context'],
	[{ pricing: { perImage: 0.04 } }, '$0.04 per image'],
	[{ pricing: { perSecond: 0.0001 } }, '$0.0001 per second'],
	[{ pricing: { perCall: 0.002 } }, '$0.002 per call'],
	[{ contextLength: 1_048_576 }, '1M context'],
	[{}, ''],
])('the prices and context in words: %j', (more, words) => {
	expect(priceWords(model(more as Partial<CatalogueModel>))).toBe(words);
});
