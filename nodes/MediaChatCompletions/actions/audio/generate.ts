import { values } from '../../../../engine';
import type { Action } from '../item';
import { asBuffer } from '../item';

/** Audio > Generate Audio: Text Input and Voice to the operation's input, the audio to the output item. */
export const speak: Action<'speak'> = {
	sets: { input: 'the Text Input field sets', voice: 'the Voice field sets' },
	job: ({ context, itemIndex, request }) => {
		const input = values.requiredText(
			context.getNodeParameter('input', itemIndex),
			'Text Input',
			'Give the text to speak.',
		);
		const voice = values.requiredText(
			context.getNodeParameter('voice', itemIndex),
			'Voice',
			"Name one of the model's voices, e.g. alloy (OpenAI) or af_heart (Kokoro): voices depend on the model.",
		);
		return {
			request,
			run: async (client) => {
				const speech = await client.call('speak', { request, input, voice });
				const { mimeType, extension } = speech.type;
				const binary = await context.helpers.prepareBinaryData(
					asBuffer(speech.bytes),
					`speech.${extension}`,
					mimeType,
				);
				return [
					{
						json: { model: request.model, voice },
						binary: { [request.output]: binary },
						pairedItem: { item: itemIndex },
					},
				];
			},
		};
	},
};
