/**
 * The images the image model answers, made in code: a flat-coloured PNG whose colour comes from what was asked
 * and whose iTXt chunks say it (the prompt, which image of how many, the size asked; for an edit, each input
 * image and the mask as they arrived), so that a test reads back what the service was sent. JPEG and WebP
 * (`output_format`) carry no text.
 */
import { createHash } from 'node:crypto';
import { digest } from '../digest.mts';
import type { ImageInfo } from './image-header.mts';
import { jpeg, png, webp, type Rgb } from './encode.mts';

/** The formats an image is answered in (`output_format`), and their MIME types. */
export const MIME_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
export type OutputFormat = keyof typeof MIME_TYPES;
export const OUTPUT_FORMATS = Object.keys(MIME_TYPES) as OutputFormat[];

/** Pixels in each direction per pixel drawn: a 1024x1024 image is drawn as 16x16 pixels. */
export const SCALE = 64;

export interface Drawing {
	/** The size asked, e.g. `1024x1536`; drawn at a 64th of it in each direction. */
	width: number;
	height: number;
	format: OutputFormat;
	/** The iTXt chunks of a PNG: what the image was made from. */
	text: Record<string, string>;
}

/** An RGB colour from any text: the first three bytes of its SHA-256. */
function colourOf(text: string): Rgb {
	const [red, green, blue] = createHash('sha256').update(text).digest();
	return [red, green, blue];
}

/** The image file of a drawing, its colour taken from its text. */
export function draw({ width, height, format, text }: Drawing): Buffer {
	const pixelsWide = Math.max(1, Math.round(width / SCALE));
	const pixelsHigh = Math.max(1, Math.round(height / SCALE));
	if (format === 'jpeg') return jpeg(pixelsWide, pixelsHigh);
	if (format === 'webp') return webp(pixelsWide, pixelsHigh);
	const colour = colourOf(JSON.stringify(text));
	return png(pixelsWide, pixelsHigh, () => colour, text);
}

/** How an edit's text names an input image: `PNG 2x3 sha256:0123456789ab`. */
export function described(info: ImageInfo, bytes: Buffer): string {
	return `${info.format} ${info.width}x${info.height} sha256:${digest(bytes)}`;
}
