// What a Python file's names stand for, from its import lines: `import pyodbc as odbc` makes `odbc.connect` pyodbc's,
// `import sqlalchemy as sa` makes `sa.text` SQLAlchemy's, `from sqlalchemy import text as sql_text` makes `sql_text(…)`
// sqlalchemy.text. Read from the text with one pass of two patterns (imports inside functions count too; a name bound
// twice keeps its last import). Given the file's path, relative imports (`from . import dao`, `from ..db import save`)
// are resolved against its package: its folders, as dotted names (engine/cross-file.ts matches them to files).

import type { FrontEndResult, SourceFile } from '../../engine/types';

export interface PythonImports {
  /** `text` (a name, or a dotted expression such as `sa.orm`) written with what it stands for: `sqlalchemy.orm`. */
  qualify(text: string): string;
  /** Whether the file imports `module` or a module inside it (`sqlalchemy.orm` for `sqlalchemy`). */
  imports(module: string): boolean;
  /** What `text` stands for when an import binds its first name (`app.dao.save_row` for `dao.save_row`), else undefined. */
  resolve(text: string): string | undefined;
}

const IMPORT = /^[ \t]*import[ \t]+([\w. \t,]{1,2000})/gm;
const FROM_IMPORT = /^[ \t]*from[ \t]+([\w.]{1,200})[ \t]+import[ \t]+(\([^)]{0,4000}\)|[^\n#;]{1,2000})/gm;
const ITEM = /^([\w.]+)(?:\s+as\s+(\w+))?$/;

export function pythonImports(source: string, path?: string): PythonImports {
  // Local name → what it stands for (a module, or a module's member).
  const bound = new Map<string, string>();
  const modules = new Set<string>();
  if (source.includes('import')) {
    for (const m of source.matchAll(IMPORT)) {
      for (const part of m[1].split(',')) {
        const item = ITEM.exec(part.trim());
        if (!item) continue;
        const [, dotted, alias] = item;
        modules.add(dotted);
        // `import a.b` binds `a`; `import a.b as c` binds c to a.b.
        if (alias) bound.set(alias, dotted);
        else bound.set(dotted.split('.')[0], dotted.split('.')[0]);
      }
    }
    for (const m of source.matchAll(FROM_IMPORT)) {
      let module = m[1];
      if (module.startsWith('.')) {
        // (Relative imports bind names only with the file's path, and name no module `imports` answers for.)
        const absolute = path === undefined ? undefined : relativeModule(module, path);
        if (absolute === undefined) continue;
        module = absolute;
      } else modules.add(module);
      for (const part of m[2].replace(/[()]/g, '').split(',')) {
        const item = ITEM.exec(part.replace(/#[^\n]*/g, '').trim());
        if (!item || item[1].includes('.')) continue;
        bound.set(item[2] ?? item[1], `${module}.${item[1]}`);
      }
    }
  }
  return {
    qualify(text) {
      const dot = text.indexOf('.');
      const head = dot < 0 ? text : text.slice(0, dot);
      const base = bound.get(head);
      return base === undefined ? text : base + (dot < 0 ? '' : text.slice(dot));
    },
    resolve(text) {
      const dot = text.indexOf('.');
      const base = bound.get(dot < 0 ? text : text.slice(0, dot));
      return base === undefined ? undefined : base + (dot < 0 ? '' : text.slice(dot));
    },
    imports(module) {
      for (const m of modules) if (m === module || m.startsWith(module + '.')) return true;
      return false;
    },
  };
}

/**
 * `.dao` in app/service.py → `app.dao`: one dot is the file's package (its folder), each more one folder up. The
 * package is the folders above the file back to the first that is no Python name (`my-project`, a drive): where a
 * module's own names start (engine/cross-file.ts, modulesOf). Undefined past that.
 */
function relativeModule(module: string, path: string): string | undefined {
  const dots = /^\.*/.exec(module)![0].length;
  const rest = module.slice(dots);
  const folders = packageOf(path);
  if (dots - 1 > folders.length) return undefined;
  const names = [...folders.slice(0, folders.length - (dots - 1)), ...(rest ? rest.split('.') : [])];
  return names.length > 0 ? names.join('.') : undefined;
}

/** The folders above a file that are Python names, nearest last (`['app']` for /home/my-project/app/service.py). */
export function packageOf(path: string): string[] {
  const parts = path.split(/[\\/]/);
  parts.pop();
  let from = parts.length;
  while (from > 0 && PY_NAME.test(parts[from - 1])) from--;
  return parts.slice(from);
}

const PY_NAME = /^[A-Za-z_]\w*$/;

/**
 * The file's calls in loops (CodeModel.moduleCalls, as the walk found them: `save_row`, `dao.save_row`) as its
 * imports resolve them (`app.dao.save_row`), and only those: a name no import binds is the file's own, a local's
 * method or a builtin, never another module's function by its name alone.
 */
export function withResolvedModuleCalls(result: FrontEndResult, source: SourceFile): FrontEndResult {
  const calls = result.code?.moduleCalls;
  if (!calls) return result;
  const imports = pythonImports(source.text, source.path);
  const seen = new Set<string>();
  const resolved: typeof calls = [];
  for (const call of calls) {
    const callee = imports.resolve(call.callee);
    if (callee === undefined || !callee.includes('.')) continue;
    const key = `${call.loop.span.start}\0${callee}`;
    if (seen.has(key)) continue;
    seen.add(key);
    resolved.push({ ...call, callee });
  }
  const code = { ...result.code! };
  if (resolved.length > 0) code.moduleCalls = resolved;
  else delete code.moduleCalls;
  return { ...result, code };
}

/**
 * The classes of the file's ORM inserts that are none of its own (SqlExecution.ormClass, `from` holding the class as
 * written: `Order`, `models.Order`) as its imports resolve them (`app.models.Order`, relative imports against the
 * file's package; the name the class has there, not an alias); `from` dropped where no import binds the name (a star
 * import: the file does not say).
 */
export function withResolvedOrmClasses(result: FrontEndResult, source: SourceFile): FrontEndResult {
  const executions = result.code?.executions;
  if (!executions?.some((e) => e.ormClass)) return result;
  const imports = pythonImports(source.text, source.path);
  for (const e of executions) {
    const written = e.ormClass?.from?.[0];
    if (written === undefined) continue;
    const resolved = imports.resolve(written);
    // (`from .models import OrderLine as Order`: the class is OrderLine.)
    e.ormClass = resolved !== undefined && resolved.includes('.') ? { name: resolved.slice(resolved.lastIndexOf('.') + 1), from: [resolved] } : { name: e.ormClass!.name };
  }
  return result;
}
