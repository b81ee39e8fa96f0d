/**
 * A transcription or translation in each `response_format` OpenAI's audio API offers: `json` ({text, usage}),
 * `text`, `verbose_json` ({task, language, duration, text, segments}), `srt` and `vtt`. The words are spread
 * evenly over the recording's length, six to a segment.
 */

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export interface Transcript {
	task: 'transcribe' | 'translate';
	/** The language's name, as verbose_json gives it (`english`). */
	language: string;
	seconds: number;
	text: string;
}

interface Segment {
	start: number;
	end: number;
	text: string;
}

const WORDS_PER_SEGMENT = 6;

const round = (seconds: number) => Math.round(seconds * 100) / 100;

function segmentsOf({ text, seconds }: Transcript): Segment[] {
	const words = text.split(/\s+/).filter((word) => word !== '');
	const perWord = seconds / Math.max(1, words.length);
	const segments: Segment[] = [];
	for (let first = 0; first < words.length; first += WORDS_PER_SEGMENT) {
		const group = words.slice(first, first + WORDS_PER_SEGMENT);
		segments.push({
			start: round(first * perWord),
			end: round((first + group.length) * perWord),
			text: ` ${group.join(' ')}`,
		});
	}
	return segments;
}

/** `00:01:02,500` (srt) or `00:01:02.500` (vtt). */
function clock(seconds: number, separator: string): string {
	const ms = Math.round(seconds * 1000);
	const pad = (value: number, width = 2) => String(value).padStart(width, '0');
	const hours = Math.floor(ms / 3_600_000);
	const minutes = Math.floor(ms / 60_000) % 60;
	return `${pad(hours)}:${pad(minutes)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** The body and its Content-Type for `format`. */
export function transcriptBody(
	transcript: Transcript,
	format: TranscriptFormat,
): { body: string; contentType: string } {
	const segments = segmentsOf(transcript);
	const plain = 'text/plain; charset=utf-8';
	switch (format) {
		case 'text':
			return { body: `${transcript.text}\n`, contentType: plain };
		case 'srt':
			return {
				body: segments
					.map(
						(segment, index) =>
							`${index + 1}\n${clock(segment.start, ',')} --> ${clock(segment.end, ',')}\n${segment.text.trim()}\n\n`,
					)
					.join(''),
				contentType: plain,
			};
		case 'vtt':
			return {
				body: `WEBVTT\n\n${segments.map((segment) => `${clock(segment.start, '.')} --> ${clock(segment.end, '.')}\n${segment.text.trim()}\n\n`).join('')}`,
				contentType: 'text/vtt; charset=utf-8',
			};
		case 'verbose_json':
			return {
				body: JSON.stringify({
					task: transcript.task,
					language: transcript.language,
					duration: round(transcript.seconds),
					text: transcript.text,
					segments: segments.map((segment, id) => ({
						id,
						seek: 0,
						...segment,
						tokens: [],
						temperature: 0,
						avg_logprob: -0.2,
						compression_ratio: 1,
						no_speech_prob: 0.01,
					})),
				}),
				contentType: 'application/json',
			};
		default:
			return {
				body: JSON.stringify({
					text: transcript.text,
					usage: { type: 'duration', seconds: Math.max(1, Math.round(transcript.seconds)) },
				}),
				contentType: 'application/json',
			};
	}
}
