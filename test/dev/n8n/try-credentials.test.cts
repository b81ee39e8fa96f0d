/** `npm run try`'s banner: every credential it imports, with its key and the examples that use it. */
import { exampleCredentials, readExamples } from '../../../dev/n8n/examples.cts';
import { credentialLines } from '../../../dev/n8n/try-credentials.cts';
import { keys } from '../../../dev/service-client/local-service.cts';

const lines = credentialLines(
	exampleCredentials(keys),
	readExamples().map(({ workflow }) => workflow),
);

/** The examples the banner lists under the credential of `key`. */
function usersOf(key: string): string[] {
	const at = lines.findIndex((line) => line.includes(`key ${key}), used by:`));
	expect(at).not.toBe(-1);
	const next = lines.findIndex((line, index) => index > at && !line.startsWith('  '));
	return lines.slice(at + 1, next === -1 ? undefined : next).map((line) => line.trim());
}

test('the banner names each key the examples use, and which examples use it', () => {
	expect(usersOf(keys.default).length).toBeGreaterThan(1);
	expect(usersOf(keys.rag)).toEqual([expect.stringMatching(/RAG/)]);
	expect(usersOf(keys.media)).toEqual([
		expect.stringMatching(/generate an image/),
		expect.stringMatching(/transcribe a recording/),
	]);
	expect(usersOf(keys['video-openai'])).toEqual([expect.stringMatching(/generate a video/)]);
});

test('every example is listed under the credential it names', () => {
	const listed = [keys.default, keys.rag, keys.media, keys['video-openai']].flatMap(usersOf);
	expect(listed.sort()).toEqual(
		readExamples()
			.map(({ workflow }) => workflow.name)
			.sort(),
	);
});
