/**
 * Writes the fixtures that GET /__assets/<name> serves (dev/service/assets/): the smallest valid files of each
 * format the vision model reads, built byte by byte (images/encode.mts), and a recording the transcription model
 * hears as its title tag (audio/encode.mts). The files are committed; run
 * this again only to change them: node dev/service/make-assets.mts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wav } from './audio/encode.mts';
import { gif1x1, jpeg, png, webp } from './images/encode.mts';

const assets = join(import.meta.dirname, 'assets');

const files: Record<string, Buffer> = {
	'pixel-2x3.png': png(2, 3),
	'grey-4x5.jpg': jpeg(4, 5),
	'dot-1x1.gif': gif1x1(),
	'clear-3x2.webp': webp(3, 2),
	'not-an-image.txt': Buffer.from('This is plain text, not an image.\n'),
	'question.wav': wav(1, { title: 'When does the office garage open?', artist: 'A caller' }),
};

for (const [name, bytes] of Object.entries(files)) {
	writeFileSync(join(assets, name), bytes);
	console.log(`${name}: ${bytes.length} bytes`);
}
