// The SQLAlchemy session factories and constructors a Python file's text builds, and whether each turns autoflush off:
// the project evidence (cli/project-evidence.ts) that a session a module does not build itself (a parameter, another
// module's SessionLocal(), a FastAPI Depends(get_db)) autoflushes or not. Read from the text, as the project's other
// evidence is (code/access.ts), before any file is parsed.

/**
 * Where a file configures sessions with autoflush off other than in a factory's own call: Flask-SQLAlchemy's
 * session_options={"autoflush": False}, `Session.configure(autoflush=False)` / `SessionLocal.configure(…)`,
 * SESSION_AUTOFLUSH = False. The Python front end reads the same (python-autoflush.ts autoflushOffIn).
 */
export const AUTOFLUSH_CONFIGURED_OFF = /["']autoflush["'][ \t]*:[ \t]*(?:False|0)\b|\.configure\([^)]{0,400}\bautoflush[ \t]*=[ \t]*(?:False|0)\b|SESSION_AUTOFLUSH[ \t]*=[ \t]*False\b/;

/** What a file builds: its first factory or constructor that leaves autoflush on, its first that turns it off (as written). */
export interface SessionFactories {
  on?: string;
  off?: string;
  /**
   * Every factory and constructor it builds, in text order, where one is assigned to a name (`SessionLocal =
   * sessionmaker(...)`): the name, whether it is off, as written. A configure call of that name (here or in another
   * module of the project) sets it again (cli/evidence-python.ts).
   */
  made?: { name?: string; off: boolean; written: string }[];
  /**
   * Its `Name.configure(..., autoflush=...)` calls (sessionmaker's and scoped_session's configure), by the name
   * configured: whether autoflush is set off, as written. Another module's factory of that name is configured so.
   */
  configures?: Map<string, { off: boolean; written: string }>;
}

/**
 * sessionmaker( / async_sessionmaker( (bare or sqlalchemy.orm's), Session( / AsyncSession( where the file imports
 * SQLAlchemy's (another library's Session, requests.Session(), is not one), Flask-SQLAlchemy's SQLAlchemy( where the
 * file imports flask_sqlalchemy. scoped_session( wraps a factory and builds none of its own.
 */
const FACTORY_CALL = /(?<![\w.])((?:(?:sqlalchemy\.)?orm\.)?(?:async_)?sessionmaker|(?:(?:sqlalchemy\.)?orm\.)?Session|AsyncSession|(?:flask_sqlalchemy\.)?SQLAlchemy)[ \t]*\(/g;
const IMPORTS_SESSION = /^[ \t]*from[ \t]+(?:sqlalchemy(?:\.orm(?:\.session)?|\.ext\.asyncio(?:\.session)?)|sqlmodel(?:\.ext\.asyncio\.session)?)[ \t]+import[ \t]+\(?[^)#;]{0,1000}?\b(?:Async)?Session\b/m;
const IMPORTS_FLASK_SQLALCHEMY = /^[ \t]*(?:from|import)[ \t]+flask_sqlalchemy\b/m;
const AUTOFLUSH_FALSE_KEYWORD = /\bautoflush[ \t]*=[ \t]*(?:False|0)\b/;
const AUTOFLUSH_FALSE_OPTION = /["']autoflush["'][ \t]*:[ \t]*(?:False|0)\b/;
/** How much of a call's arguments is read (a factory's call is short). */
const MAX_ARGUMENTS = 2000;

/**
 * The session factories and constructors the text builds (a file that uses SQLAlchemy), each taken as autoflush off
 * when its call says autoflush=False (Flask-SQLAlchemy: session_options={"autoflush": False}) or when the file
 * configures its sessions so (AUTOFLUSH_CONFIGURED_OFF); undefined when it builds none. A call in a comment line, or
 * whose arguments do not close within 2,000 characters, counts as leaving autoflush on (the finding stays).
 */
export function sessionFactoriesIn(text: string): SessionFactories | undefined {
  if (!/sessionmaker|Session|SQLAlchemy/.test(text)) return sessionConfiguresIn(text);
  const configuredOff = text.includes('autoflush') ? AUTOFLUSH_CONFIGURED_OFF.exec(text) : null;
  const session = IMPORTS_SESSION.test(text);
  const flask = IMPORTS_FLASK_SQLALCHEMY.test(text);
  const found: SessionFactories = {};
  const made: NonNullable<SessionFactories['made']> = [];
  for (const m of text.matchAll(FACTORY_CALL)) {
    const name = m[1];
    const bare = name.slice(name.lastIndexOf('.') + 1);
    if (bare === 'SQLAlchemy' ? !flask : /Session$/.test(bare) && !name.includes('.') && !session) continue;
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (/^[ \t]*#/.test(text.slice(lineStart, m.index + 1))) continue;
    const args = argumentsAt(text, m.index + m[0].length);
    const off = args !== undefined && (bare === 'SQLAlchemy' ? AUTOFLUSH_FALSE_OPTION : AUTOFLUSH_FALSE_KEYWORD).test(args);
    const written = args !== undefined && args.length <= 100 && !args.includes('\n') ? `${name}(${args})` : `${name}(…)`;
    if (off || configuredOff) found.off ??= off ? written : `${written} with ${configuredOff![0]}`;
    else found.on ??= written;
    const assigned = ASSIGNED_TO.exec(text.slice(lineStart, m.index))?.[1];
    made.push({ ...(assigned ? { name: assigned } : {}), off: off || !!configuredOff, written: off || !configuredOff ? written : `${written} with ${configuredOff[0]}` });
  }
  if (made.some((f) => f.name !== undefined)) found.made = made;
  const configures = sessionConfiguresIn(text)?.configures;
  if (configures) found.configures = configures;
  return found.on || found.off || found.configures ? found : undefined;
}

/** `Name = ` (or `Name: type = `, `Name = scoped_session(`) before a factory's call on its line. */
const ASSIGNED_TO = /^[ \t]*([A-Za-z_]\w{0,100})[ \t]*(?::[^=\n]{1,100})?=[ \t]*(?:(?:[\w.]{1,100}\.)?scoped_session[ \t]*\([ \t]*)?$/;
/** `Name.configure(` (a bare or dotted name: database.SessionLocal.configure). */
const CONFIGURE_CALL = /(?<![\w.])((?:[A-Za-z_]\w{0,100}\.){0,3}[A-Za-z_]\w{0,100})[ \t]*\.[ \t]*configure[ \t]*\(/g;
const AUTOFLUSH_KEYWORD = /\bautoflush[ \t]*=[ \t]*(True|False|1|0)\b/;

/**
 * The `Name.configure(..., autoflush=True|False)` calls of a text (not in a comment line), by the configured name's
 * last part (`SessionLocal` of `database.SessionLocal`); a later call of a name replaces an earlier one.
 */
export function sessionConfiguresIn(text: string): SessionFactories | undefined {
  if (!text.includes('autoflush') || !text.includes('configure')) return undefined;
  let configures: Map<string, { off: boolean; written: string }> | undefined;
  for (const m of text.matchAll(CONFIGURE_CALL)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (/^[ \t]*#/.test(text.slice(lineStart, m.index + 1))) continue;
    const args = argumentsAt(text, m.index + m[0].length);
    const flag = args === undefined ? undefined : AUTOFLUSH_KEYWORD.exec(args)?.[1];
    if (flag === undefined) continue;
    const name = m[1].slice(m[1].lastIndexOf('.') + 1);
    const written = args!.length <= 100 && !args!.includes('\n') ? `${m[1]}.configure(${args})` : `${m[1]}.configure(\u2026)`;
    (configures ??= new Map()).set(name, { off: flag === 'False' || flag === '0', written });
  }
  return configures ? { configures } : undefined;
}

/** The text of a call's arguments from just after its '(' to its matching ')' (strings skipped), if within MAX_ARGUMENTS. */
function argumentsAt(text: string, from: number): string | undefined {
  let depth = 1;
  let quote: string | undefined;
  const end = Math.min(text.length, from + MAX_ARGUMENTS);
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) return text.slice(from, i);
    }
  }
  return undefined;
}
