// What a Python file's names stand for, from its import lines: `import pyodbc as odbc` makes `odbc.connect` pyodbc's,
// `import sqlalchemy as sa` makes `sa.text` SQLAlchemy's, `from sqlalchemy import text as sql_text` makes `sql_text(…)`
// sqlalchemy.text. Read from the text with one pass of two patterns (imports inside functions count too; a name bound
// twice keeps its last import).

export interface PythonImports {
  /** `text` (a name, or a dotted expression such as `sa.orm`) written with what it stands for: `sqlalchemy.orm`. */
  qualify(text: string): string;
  /** Whether the file imports `module` or a module inside it (`sqlalchemy.orm` for `sqlalchemy`). */
  imports(module: string): boolean;
}

const IMPORT = /^[ \t]*import[ \t]+([\w. \t,]{1,2000})/gm;
const FROM_IMPORT = /^[ \t]*from[ \t]+([\w.]{1,200})[ \t]+import[ \t]+(\([^)]{0,4000}\)|[^\n#;]{1,2000})/gm;
const ITEM = /^([\w.]+)(?:\s+as\s+(\w+))?$/;

export function pythonImports(source: string): PythonImports {
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
      const module = m[1];
      if (module.startsWith('.')) continue;
      modules.add(module);
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
    imports(module) {
      for (const m of modules) if (m === module || m.startsWith(module + '.')) return true;
      return false;
    },
  };
}
