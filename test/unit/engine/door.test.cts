/**
 * The engine's front door (engine/index.ts) counted as the TypeScript checker sees it: every name it exports,
 * values and types, and every member of each namespace it exports, since a namespace's members reach the
 * nodes as surely as the door's own names. engine/README.md states the maximum.
 */
import { resolve } from 'node:path';
import ts from 'typescript';

const MAX_NAMES = 97;

const root = resolve(__dirname, '../../..');

/** The names that reach the nodes: `name` for the door's own, `namespace.member` for a namespace's. */
function doorNames(): string[] {
	const door = resolve(root, 'engine/index.ts');
	const program = ts.createProgram([door], {
		strict: true,
		module: ts.ModuleKind.CommonJS,
		moduleResolution: ts.ModuleResolutionKind.Node10,
		target: ts.ScriptTarget.ES2022,
		esModuleInterop: true,
		resolveJsonModule: true,
		skipLibCheck: true,
		noEmit: true,
		types: [],
	});
	const checker = program.getTypeChecker();
	const module = checker.getSymbolAtLocation(program.getSourceFile(door)!)!;
	const names: string[] = [];
	for (const symbol of checker.getExportsOfModule(module)) {
		names.push(symbol.name);
		const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
		if (target.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) {
			for (const member of checker.getExportsOfModule(target)) {
				names.push(`${symbol.name}.${member.name}`);
			}
		}
	}
	return names;
}

describe("the engine's front door", () => {
	const names = doorNames();

	test(`lets at most ${MAX_NAMES} names reach the nodes, namespaces' members included`, () => {
		expect(names.length).toBeLessThanOrEqual(MAX_NAMES);
	});

	test('counts the members of its namespaces', () => {
		expect(names).toEqual(expect.arrayContaining(['errors', 'errors.InputError', 'startRun']));
	});
});
