// The engine does not import the code front ends: the CLI and the language server hand them in, as they hand in
// the rules (docs/architecture.md, Invariants). What the engine, the schema and the rules share with the front ends
// is the model of code (server/src/code-model/); the SQL PL reader is part of the SQL front end (server/src/sql/).
// Read from the import lines of the repository's sources, as they are checked out.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const CODE = join(ROOT, 'server', 'src', 'code');

/** Folders whose modules build a Workspace and may load the code front end to hand it in (or are it). */
const MAY_IMPORT_CODE = ['server/src/code', 'server/src/cli', 'server/src/lsp'].map((f) => join(ROOT, f));

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return tsFilesUnder(path);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/**
 * The relative modules a source file imports, as paths resolved from its folder: `import … from`, `export … from`,
 * `import '…'`, `import('…')` and `require('…')`, over several lines too.
 */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  const specifiers = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(specifiers)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec.startsWith('.')) found.push(resolve(dirname(file), spec));
  }
  return found;
}

/** Whether a resolved import is the code front end's folder or a module in it (not code-model/). */
function inCodeFolder(path: string): boolean {
  return path === CODE || path.startsWith(CODE + sep);
}

/** The source file an import resolved from its folder names (`x` is x.ts or x/index.ts), or undefined (a .js, a .json). */
function sourceOf(path: string): string | undefined {
  for (const candidate of [path + '.ts', join(path, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

describe('layering: the engine does not import the code front ends', () => {
  const sources = [...tsFilesUnder(join(ROOT, 'server', 'src')), ...tsFilesUnder(join(ROOT, 'rules'))];

  it('reads import lines as they are written (the check itself)', () => {
    const file = join(ROOT, 'server', 'src', 'engine', 'x.ts');
    const text = [
      "import type { CodeModel } from '../code-model/types';",
      'import {',
      '  loadCodeFrontEnd,',
      "} from '../code/frontend';",
      "export { HOST_LANGUAGES } from '../code/languages';",
      "const { grammarsFor } = await import('../code/frontend');",
      "import 'node:fs';",
    ].join('\n');
    const imports = importsOf(file, text);
    assert.deepEqual(
      imports.map((p) => relative(ROOT, p).split(sep).join('/')),
      ['server/src/code-model/types', 'server/src/code/frontend', 'server/src/code/languages', 'server/src/code/frontend'],
    );
    assert.deepEqual(imports.map(inCodeFolder), [false, true, true, true]);
    // The language server does load the front end: the check finds such an import where there is one.
    const server = join(ROOT, 'server', 'src', 'lsp', 'language-server.ts');
    assert.ok(importsOf(server, readFileSync(server, 'utf8')).some(inCodeFolder));
  });

  it('finds the engine, the schema, the SQL front end, the code model and the rules among the sources', () => {
    const folders = new Set(sources.map((f) => relative(ROOT, dirname(f)).split(sep).join('/')));
    for (const folder of ['server/src/engine', 'server/src/schema', 'server/src/sql', 'server/src/code-model', 'rules']) assert.ok(folders.has(folder), folder);
  });

  it('imports server/src/code/ only from the code front end itself, the CLI and the language server', () => {
    const offending: string[] = [];
    for (const file of sources) {
      if (MAY_IMPORT_CODE.some((dir) => file.startsWith(dir + sep))) continue;
      for (const target of importsOf(file, readFileSync(file, 'utf8'))) {
        if (inCodeFolder(target)) offending.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
      }
    }
    assert.deepEqual(offending, []);
  });

  it('reaches no module of server/src/code/ from the engine, the schema, the SQL front end, the code model or the rules', () => {
    // Through any folder: schema/schema-files.ts imports cli/files.ts, which may not lead to the front end either.
    const starts = ['engine', 'schema', 'sql', 'code-model'].flatMap((f) => tsFilesUnder(join(ROOT, 'server', 'src', f))).concat(tsFilesUnder(join(ROOT, 'rules')));
    const from = new Map<string, string>(starts.map((f) => [f, f]));
    const queue = [...starts];
    const reached: string[] = [];
    while (queue.length > 0) {
      const file = queue.pop()!;
      for (const target of importsOf(file, readFileSync(file, 'utf8'))) {
        const source = sourceOf(target);
        if (!source || from.has(source)) continue;
        from.set(source, file);
        if (inCodeFolder(source)) reached.push(`${relative(ROOT, source)} through ${relative(ROOT, file)}`);
        else queue.push(source);
      }
    }
    assert.deepEqual(reached, []);
    // The walk went beyond the starting folders (cli/files.ts), so it follows imports.
    assert.ok(from.has(join(ROOT, 'server', 'src', 'cli', 'files.ts')));
  });
});
