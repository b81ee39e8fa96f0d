/**
 * The model list in each gateway's shape (dev/service/model-shapes.mts), picked by the `x-local-models` header:
 * OpenRouter's text-only default and its `output_modalities` filter with the models' fields and prices, new-api's
 * endpoint types and `/api/pricing`, LiteLLM's `/model/info`, and a gateway that refuses the query parameter.
 */
import { keys, useLocalService } from '../../support/service.cts';
import { send } from './client.cts';

const service = useLocalService();

function get(path: string, style?: string, key = keys.catalogue) {
	return send(`${service().origin}${path}`, {
		headers: {
			Authorization: `Bearer ${key}`,
			...(style === undefined ? {} : { 'x-local-models': style }),
		},
	});
}

const ids = (json: { data: Array<{ id: string }> }) => json.data.map((model) => model.id);

describe('the model list in the gateways shapes', () => {
	it('without the header lists every model of the key, untagged, whatever the query', async () => {
		const reply = await get('/v1/models?output_modalities=all');
		expect(reply.status).toBe(200);
		expect(ids(reply.json)).toEqual([
			'echo-1',
			'vision-1',
			'embed-1',
			'rerank-1',
			'image-1',
			'whisper-local',
			'tts-local',
			'local/*',
		]);
		expect(reply.json.data[0]).toEqual({
			id: 'echo-1',
			object: 'model',
			created: expect.any(Number),
			owned_by: expect.any(String),
		});
	});

	it("OpenRouter's lists text-output models only unless output_modalities asks for others", async () => {
		expect(ids((await get('/v1/models', 'openrouter')).json)).toEqual([
			'echo-1',
			'vision-1',
			'local/*',
		]);
		expect(
			ids((await get('/v1/models?output_modalities=embeddings,rerank', 'openrouter')).json),
		).toEqual(['embed-1', 'rerank-1', 'local/*']);
		const all = (await get('/v1/models?output_modalities=all', 'openrouter')).json;
		expect(ids(all)).toHaveLength(8);
		expect(all.data[0]).toMatchObject({
			id: 'echo-1',
			architecture: { input_modalities: ['text'], output_modalities: ['text'] },
			context_length: 128000,
			top_provider: { max_completion_tokens: 16384 },
			pricing: { prompt: '1.5e-7', completion: '6e-7' },
		});
		expect(all.data.find((model: { id: string }) => model.id === 'image-1').pricing).toEqual({
			prompt: '0',
			completion: '0',
			request: '0.04',
		});
	});

	it("new-api's tags each model with its endpoint types, and /api/pricing tells the ratios", async () => {
		const list = (await get('/v1/models?output_modalities=all', 'new-api')).json;
		expect(
			Object.fromEntries(
				list.data.map((model: { id: string; supported_endpoint_types?: string[] }) => [
					model.id,
					model.supported_endpoint_types,
				]),
			),
		).toEqual({
			'echo-1': ['openai', 'openai-response'],
			'vision-1': ['openai', 'openai-response'],
			'embed-1': ['embeddings'],
			'rerank-1': ['jina-rerank'],
			'image-1': ['image-generation'],
			'whisper-local': ['openai'],
			'tts-local': ['openai'],
			'local/*': undefined,
		});
		const pricing = (await get('/api/pricing', 'new-api')).json;
		expect(pricing.group_ratio).toEqual({ default: 2, vip: 1 });
		expect(
			pricing.data.find((model: { model_name: string }) => model.model_name === 'echo-1'),
		).toMatchObject({
			quota_type: 0,
			model_ratio: 0.075,
			completion_ratio: 4,
		});
		expect(
			pricing.data.find((model: { model_name: string }) => model.model_name === 'image-1'),
		).toMatchObject({
			quota_type: 1,
			model_price: 0.04,
		});
		expect((await get('/api/pricing')).status).toBe(404);
	});

	it("LiteLLM's /model/info tells each model's mode and costs", async () => {
		const info = (await get('/model/info', 'litellm')).json;
		const of = (id: string) =>
			info.data.find((model: { model_name: string }) => model.model_name === id).model_info;
		expect(of('embed-1')).toMatchObject({ mode: 'embedding', input_cost_per_token: 2e-8 });
		expect(of('whisper-local')).toMatchObject({
			mode: 'audio_transcription',
			input_cost_per_second: 0.0001,
		});
		expect(of('tts-local')).toMatchObject({ mode: 'audio_speech', input_cost_per_token: null });
		expect((await get('/model/info', 'new-api')).status).toBe(404);
	});

	it('a strict gateway refuses the query parameter with a 400 and answers the bare list', async () => {
		const refused = await get('/v1/models?output_modalities=all', 'strict');
		expect(refused.status).toBe(400);
		expect(refused.json.error).toMatchObject({
			code: 'unknown_parameter',
			param: 'output_modalities',
		});
		expect((await get('/v1/models', 'strict')).status).toBe(200);
	});
});
