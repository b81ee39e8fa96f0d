/** Tests are TypeScript `.cts` files: n8n's lint rules are for code that runs inside n8n, not for tests. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.cts'],
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', diagnostics: false}],
		// eventsource-parser ships only ES modules (the build bundles it into dist): compiled to CommonJS here.
		'/node_modules/eventsource-parser/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false }],
	},
	transformIgnorePatterns: ['/node_modules/(?!eventsource-parser/)'],
};
