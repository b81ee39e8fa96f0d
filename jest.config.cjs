/** Tests are TypeScript `.cts` files: n8n's lint rules are for code that runs inside n8n, not for tests. */
const typescript = {
	testEnvironment: 'node',
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', diagnostics: false }],
		// eventsource-parser ships only ES modules (the build bundles it into dist): compiled to CommonJS here.
		'/node_modules/eventsource-parser/.+\\.js$': [
			'ts-jest',
			{ tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false },
		],
	},
	transformIgnorePatterns: ['/node_modules/(?!eventsource-parser/)'],
};

module.exports = {
	projects: [
		{
			...typescript,
			displayName: 'integration',
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.test.cts'],
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
		},
		{
			// End-to-end: the packed package installed into a real n8n (installed once into the cache).
			...typescript,
			displayName: 'real n8n',
			roots: ['<rootDir>/test/e2e'],
			testMatch: ['**/*.test.cts'],
			globalSetup: '<rootDir>/test/e2e/support/global-setup.cts',
			setupFilesAfterEnv: ['<rootDir>/test/e2e/support/timeouts.cts'],
		},
	],
};
