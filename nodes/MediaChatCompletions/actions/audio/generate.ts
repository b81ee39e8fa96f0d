import type { INodeProperties } from 'n8n-workflow';

import { media } from '../../../../engine';
import type { Action } from '../item';
import { asBuffer, itemText, outputFileName } from '../item';

const inputProperty: INodeProperties = {
	displayName: 'Text Input',
	name: 'input',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	required: true,
	placeholder: 'e.g. Your order has shipped.',
	description: 'The text to speak',
};

const voiceProperty: INodeProperties = {
	displayName: 'Voice',
	name: 'voice',
	type: 'string',
	default: 'alloy',
	required: true,
	placeholder: 'e.g. alloy',
	description:
		"The voice, as the model names it: alloy, coral, nova, ... (OpenAI), af_heart (Kokoro). Voices depend on the model: see the service's list.",
};

/** Audio > Generate Audio: Text Input and Voice to the operation's input, the audio to the output item. */
export const speak: Action<'speak'> = {
	resource: 'audio',
	operation: {
		name: 'Generate Audio',
		value: 'generate',
		action: 'Generate audio',
		description: `Speak a text with a voice (${media.MediaClient.callOf('speak')})`,
	},
	properties: [inputProperty, voiceProperty],
	sets: {
		input: `the ${inputProperty.displayName} field sets`,
		voice: `the ${voiceProperty.displayName} field sets`,
	},
	job: (item) => {
		const { context, itemIndex, request } = item;
		const input = itemText(
			item,
			inputProperty.name,
			inputProperty.displayName,
			'Give the text to speak.',
		);
		const voice = itemText(
			item,
			voiceProperty.name,
			voiceProperty.displayName,
			"Name one of the model's voices, e.g. alloy (OpenAI) or af_heart (Kokoro): voices depend on the model.",
		);
		return {
			request,
			run: async (client) => {
				const speech = await client.call('speak', { request, input, voice });
				const { mimeType, extension } = speech.type;
				const binary = await context.helpers.prepareBinaryData(
					asBuffer(speech.bytes),
					outputFileName('speech', itemIndex, extension),
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
