/** `npm run try -- --port N`: the port n8n is given, or a message that says what to type. */
import { portArgument } from '../../../dev/n8n/try-port.cts';

test('no --port: the default', () => {
	expect(portArgument(['node', 'try.cts', '--exit'])).toBeUndefined();
});

test('--port 5700: n8n on 5700', () => {
	expect(portArgument(['node', 'try.cts', '--port', '5700', '--exit'])).toBe(5700);
});

test.each([['80'], ['70000'], ['abc'], [undefined]])(
	'--port %s: refused with an example',
	(value) => {
		const argv = ['node', 'try.cts', '--port', ...(value === undefined ? [] : [value])];
		expect(() => portArgument(argv)).toThrow(
			/--port takes a free port from 1024 to 65534 .* npm run try -- --port 5700/,
		);
	},
);
