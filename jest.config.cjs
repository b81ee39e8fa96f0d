/** Tests are TypeScript `.cts` files: n8n's lint rules are for code that runs inside n8n, not for tests. */
const typescript = {
	testEnvironment: 'node',
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	transform: {
		// Compiled to CommonJS as the build compiles (tsconfig.json), so that `import()` becomes `require` as in
		// dist (the Chat Model loads its SDK part so); tsconfig.dev.json's nodenext, for type-checking, keeps it an
		// ES import, which jest runs only behind an experimental flag.
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }],
		// eventsource-parser ships only ES modules (the build bundles it into dist): compiled to CommonJS here.
		'/node_modules/eventsource-parser/.+\\.js$': [
			'ts-jest',
			{ tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false },
		],
	},
	transformIgnorePatterns: ['/node_modules/(?!eventsource-parser/)'],
	// A relative `import('./x.js')` names the TypeScript file x.ts, as TypeScript reads it (nodenext asks for
	// the extension in `import()`); `./x` finds x.ts, and x.js where there is one.
	//
	// One @langchain/core for every module, the one n8n's AI node SDK uses (as n8n 2.41.1 ships one, 1.2.8): the dev
	// tree holds two (the top level is 1.4.0), and a message chunk made by one copy is no instance of the other's
	// classes, so LangChain code in tests (LangChain's own checks, ChatOpenAI) would not see the adapter's chunks.
	moduleNameMapper: {
		'^(\\.{1,2}/.*)\\.js$': '$1',
		'^@langchain/core/(.*)$':
			'<rootDir>/node_modules/@n8n/ai-utilities/node_modules/@langchain/core/$1.cjs',
	},
};

module.exports = {
	projects: [
		{
			...typescript,
			displayName: 'integration',
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.test.cts'],
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/n8n1/'],
		},
		{
			// End-to-end: the packed package installed into a real n8n (installed once into the cache).
			...typescript,
			displayName: 'real n8n',
			roots: ['<rootDir>/test/e2e'],
			testMatch: ['**/*.test.cts'],
			globalSetup: '<rootDir>/test/e2e/support/global-setup.cts',
			globalTeardown: '<rootDir>/test/e2e/support/global-teardown.cts',
			setupFilesAfterEnv: ['<rootDir>/test/e2e/support/timeouts.cts'],
		},
		{
			// The packed package in n8n 1.x (installed once into the cache beside 2.x): npm run test:n8n1, not
			// part of npm test (scripts/test.sh selects the two projects above).
			...typescript,
			displayName: 'n8n 1.x',
			roots: ['<rootDir>/test'],
			testMatch: ['<rootDir>/test/n8n1/**/*.test.cts', '<rootDir>/test/e2e/workflows.test.cts'],
			globalSetup: '<rootDir>/test/n8n1/global-setup.cts',
			setupFilesAfterEnv: ['<rootDir>/test/e2e/support/timeouts.cts'],
		},
	],
};
