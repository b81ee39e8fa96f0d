/** Tests are TypeScript `.cts` files: n8n's lint rules are for code that runs inside n8n, not for tests. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.cts'],
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', diagnostics: false}],
	},
};
