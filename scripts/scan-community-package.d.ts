/** Types for the scanner's offline analyser, which ships as plain JavaScript. */
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	export const SOURCE_FILE_PATTERNS: string[];
	export function analyzePackage(
		packageDir: string,
		filePatterns?: string[],
	): Promise<{ passed: boolean; message?: string; details?: string }>;
}
