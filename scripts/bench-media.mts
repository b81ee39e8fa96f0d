/** `npm run bench -- media`: the Media node beside n8n's OpenAI node, and a 20 MB recording's memory (scripts/bench/media.mts). */
import { benchMedia } from './bench/media.mts';

await benchMedia();
