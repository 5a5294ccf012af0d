// A Python file's import lines, read once (readPythonImports), and what its names stand for (pythonImports):
// `import pyodbc as odbc` makes `odbc.connect` pyodbc's, `import sqlalchemy as sa` makes `sa.text` SQLAlchemy's,
// `from sqlalchemy import text as sql_text` makes `sql_text(…)` sqlalchemy.text. The one reader of import lines
// of the Python front end: access.ts (driver modules, data-access layers) and the SQLAlchemy and cross-module
// readers go through it. Read from the text with one pattern (imports inside functions count too). Given the
// file's path, relative imports (`from . import dao`, `from ..db import save`) are resolved against its package:
// its folders, as dotted names (engine/cross-file.ts matches them to files).

import type { FrontEndResult } from '../../engine/types';

/** One import line (a parenthesised list of names may span lines), as the file writes it. */
export interface PythonImportLine {
  /**
   * `from X import …`: X without the dots of a relative import (`..db` → `db`, `.` → ''); undefined for `import …`.
   */
  from?: string;
  /** The dots of a relative `from` import (`from ..db import x`: 2); 0 otherwise. */
  level: number;
  /**
   * `import a.b as c, d`: the modules (`a.b`, `d`); `from X import a as b, (c, d)`: the names (`a`, `c`, `d`); each
   * with the name it is bound to when renamed (`c`, `b`). Items that are no name (`*`, a dotted name after `from`
   * … `import`) are left out.
   */
  names: { name: string; as?: string }[];
  /** What follows `import` as written, comments of a parenthesised list included (access.ts reads its words). */
  written: string;
}

/**
 * An import line: `from` a module, with a parenthesised list of names (which may span lines) or the rest of the
 * line up to a comment or `;`; or `import` and the rest of the line. Bounded: it runs over every Python file.
 */
const IMPORT_LINE = /^[ \t]*(?:from[ \t]+([\w.]{1,200})[ \t]+import[ \t]+(\([^)]{0,4000}\)|[^\n#;]{1,2000})|import[ \t]+([^\n#;]{1,2000}))/gm;
/** The names of an `import` line: up to the first character no module list holds (a backslash, a bracket). */
const MODULE_LIST = /^[\w. \t,]*/;
const ITEM = /^([\w.]+)(?:\s+as\s+(\w+))?$/;

/** The file's import lines, in text order. */
export function readPythonImports(text: string): PythonImportLine[] {
  const lines: PythonImportLine[] = [];
  if (!text.includes('import')) return lines;
  for (const m of text.matchAll(IMPORT_LINE)) {
    if (m[1] === undefined) {
      const written = m[3];
      lines.push({ level: 0, names: items(MODULE_LIST.exec(written)![0].split(','), false), written });
    } else {
      const written = m[2];
      const level = /^\.*/.exec(m[1])![0].length;
      const parts = written.replace(/[()]/g, '').split(',').map((part) => part.replace(/#[^\n]*/g, ''));
      lines.push({ from: m[1].slice(level), level, names: items(parts, true), written });
    }
  }
  return lines;
}

function items(parts: string[], fromModule: boolean): PythonImportLine['names'] {
  const out: PythonImportLine['names'] = [];
  for (const part of parts) {
    const item = ITEM.exec(part.trim());
    // (`from x import a.b` is no Python: nothing bound.)
    if (!item || (fromModule && item[1].includes('.'))) continue;
    out.push(item[2] === undefined ? { name: item[1] } : { name: item[1], as: item[2] });
  }
  return out;
}

/** The line's module as written: `..db` for `from ..db import x`; undefined for an `import` line. */
export function fromAsWritten(line: PythonImportLine): string | undefined {
  return line.from === undefined ? undefined : '.'.repeat(line.level) + line.from;
}

/** The file's import lines, read when first asked for and then kept: one reading per file read. */
export function importLinesOnce(text: string): () => readonly PythonImportLine[] {
  let lines: readonly PythonImportLine[] | undefined;
  return () => (lines ??= readPythonImports(text));
}

/** The modules the lines name as written (`from .db import x`: `.db`; `import a.b, c`: `a.b`, `c`). */
export function importedPythonModules(lines: readonly PythonImportLine[]): string[] {
  return lines.flatMap((line) => (line.from === undefined ? line.names.map((n) => n.name) : [fromAsWritten(line)!]));
}

export interface PythonImports {
  /** `text` (a name, or a dotted expression such as `sa.orm`) written with what it stands for: `sqlalchemy.orm`. */
  qualify(text: string): string;
  /** Whether the file imports `module` or a module inside it (`sqlalchemy.orm` for `sqlalchemy`). */
  imports(module: string): boolean;
  /** What `text` stands for when an import binds its first name (`app.dao.save_row` for `dao.save_row`), else undefined. */
  resolve(text: string): string | undefined;
  /** The names the imports bind (`dao` for `import app.dao as dao`, `app` for `import app.dao`). */
  readonly bound: ReadonlySet<string>;
  /**
   * Names a relative import binds that the file's path could not resolve (read without a path), each to the name it
   * imports: `SessionLocal` for `from .database import SessionLocal`, `SL` for `... import SessionLocal as SL`.
   */
  readonly relative?: ReadonlyMap<string, string>;
}

/**
 * What the names of a file stand for, from its import lines (readPythonImports, or the text to read them from).
 * `import` lines bind first, then `from` lines; a name bound twice by lines of one kind keeps the last.
 */
export function pythonImports(source: string | readonly PythonImportLine[], path?: string): PythonImports {
  const lines = typeof source === 'string' ? readPythonImports(source) : source;
  // Local name → what it stands for (a module, or a module's member).
  const bound = new Map<string, string>();
  const relative = new Map<string, string>();
  const modules = new Set<string>();
  for (const line of lines) {
    if (line.from !== undefined) continue;
    for (const { name, as } of line.names) {
      modules.add(name);
      // `import a.b` binds `a`; `import a.b as c` binds c to a.b.
      if (as !== undefined) bound.set(as, name);
      else bound.set(name.split('.')[0], name.split('.')[0]);
    }
  }
  for (const line of lines) {
    let module = line.from;
    if (module === undefined) continue;
    if (line.level > 0) {
      // (Relative imports bind names only with the file's path, and name no module `imports` answers for.)
      const absolute = path === undefined ? undefined : relativeModule(line.level, module, path);
      if (absolute === undefined) {
        for (const { name, as } of line.names) relative.set(as ?? name, name);
        continue;
      }
      module = absolute;
    } else modules.add(module);
    for (const { name, as } of line.names) bound.set(as ?? name, `${module}.${name}`);
  }
  const resolve = (text: string): string | undefined => {
    const dot = text.indexOf('.');
    const base = bound.get(dot < 0 ? text : text.slice(0, dot));
    return base === undefined ? undefined : base + (dot < 0 ? '' : text.slice(dot));
  };
  return {
    qualify: (text) => resolve(text) ?? text,
    resolve,
    imports(module) {
      for (const m of modules) if (m === module || m.startsWith(module + '.')) return true;
      return false;
    },
    bound: new Set(bound.keys()),
    ...(relative.size > 0 ? { relative } : {}),
  };
}

/**
 * `from .dao` (level 1, `dao`) in app/service.py → `app.dao`: one dot is the file's package (its folder), each more
 * one folder up. The package is the folders above the file back to the first that is no Python name (`my-project`, a
 * drive): where a module's own names start (engine/cross-file.ts, modulesOf). Undefined past that.
 */
function relativeModule(level: number, rest: string, path: string): string | undefined {
  const folders = packageOf(path);
  if (level - 1 > folders.length) return undefined;
  const names = [...folders.slice(0, folders.length - (level - 1)), ...(rest ? rest.split('.') : [])];
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
export function withResolvedModuleCalls(result: FrontEndResult, imports: PythonImports): FrontEndResult {
  const calls = result.code?.moduleCalls;
  if (!calls) return result;
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
export function withResolvedOrmClasses(result: FrontEndResult, imports: PythonImports): FrontEndResult {
  const executions = result.code?.executions;
  if (!executions?.some((e) => e.ormClass)) return result;
  for (const e of executions) {
    const written = e.ormClass?.from?.[0];
    if (written === undefined) continue;
    const resolved = imports.resolve(written);
    // (`from .models import OrderLine as Order`: the class is OrderLine.)
    e.ormClass = resolved !== undefined && resolved.includes('.') ? { name: resolved.slice(resolved.lastIndexOf('.') + 1), from: [resolved] } : { name: e.ormClass!.name };
  }
  return result;
}
