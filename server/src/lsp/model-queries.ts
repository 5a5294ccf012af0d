// Questions the editor features ask of a file model: which table name is at an offset, which
// statement contains it, what SQL text a statement has, and which tables a file's schema facts touch.
// All offsets in and out are file offsets; statement spans are mapped through their origin.
import { fileSpanOf, type QualifiedName, type Span, type Statement } from '../sql/ast';
import { childStatements, forEachStatement } from '../sql/walk';
import type { FileModel } from '../engine/types';
import { DDL_KINDS } from '../schema/schema-findings';
import { statementsInBulkLoops } from '../code-model/bulk-loops';
import { shapeOf } from '../schema/edit-shape';
import { reparsedRange } from '../sql/incremental';
import { fillShape } from '../schema/written-columns';
import { partitionPoint } from '../engine/sorted';

export interface NameRef {
  name: QualifiedName;
  /** The statement the name is written in (for resolving unqualified names with SET SCHEMA). */
  stmt: Statement;
  role: 'table' | 'sequence';
}

/** Every table and sequence name a statement mentions, trigger bodies included. */
export function namesIn(stmt: Statement): NameRef[] {
  const out: NameRef[] = [];
  const table = (name: QualifiedName | undefined, s: Statement = stmt) => {
    if (name) out.push({ name, stmt: s, role: 'table' });
  };
  switch (stmt.kind) {
    case 'createTable':
      table(stmt.table);
      table(stmt.like);
      for (const c of stmt.constraints) if (c.kind === 'foreignKey') table(c.parent);
      for (const b of stmt.mqt?.baseTables ?? []) table(b);
      break;
    case 'alterTable':
      table(stmt.table);
      for (const a of stmt.actions) if (a.kind === 'addConstraint' && a.constraint.kind === 'foreignKey') table(a.constraint.parent);
      break;
    case 'createIndex':
      table(stmt.table);
      break;
    case 'createTrigger':
      table(stmt.table);
      for (const inner of stmt.body) out.push(...namesIn(inner));
      break;
    case 'insert':
      table(stmt.target);
      if (stmt.source.kind === 'select') for (const t of stmt.source.tables) table(t);
      for (const s of stmt.sequences) out.push({ name: s, stmt, role: 'sequence' });
      break;
    case 'merge':
      table(stmt.target);
      break;
    case 'load':
    case 'import':
    case 'lockTable':
      table(stmt.table);
      break;
    case 'declareCursor':
      for (const t of stmt.tables) table(t);
      break;
    case 'createSequence':
    case 'alterSequence':
      out.push({ name: stmt.sequence, stmt, role: 'sequence' });
      break;
    case 'update':
    case 'delete':
      table(stmt.target);
      break;
    case 'ingest':
      table(stmt.table);
      break;
    case 'loop':
      for (const t of stmt.tables ?? []) table(t);
      break;
    default:
      break;
  }
  // Routine and block bodies, branches, loops, dynamic SQL.
  if (stmt.kind !== 'createTrigger') for (const inner of childStatements(stmt)) out.push(...namesIn(inner));
  return out;
}

/** A span of `stmt`'s text in file offsets, well formed (fileSpanOf). */
export function fileSpan(stmt: Statement, span: Span): Span {
  return fileSpanOf(stmt.origin, span);
}

/** The table or sequence name written at a file offset, if any. */
export function nameAt(model: FileModel, offset: number): NameRef | undefined {
  const script = model.source.language === 'sql';
  for (const stmt of model.statements) {
    // A script's statement holds its names. In code a name may lie in a constant defined elsewhere (HEAD + TAIL,
    // TAIL above the call): outside the statement's span, which ends at the call's argument (fileSpanOf), so every
    // statement's names are looked at.
    if (script) {
      const span = fileSpan(stmt, stmt.span);
      if (offset < span.start - 1 || offset > span.end + 1) continue;
    }
    for (const ref of namesIn(stmt)) {
      const s = fileSpan(ref.stmt, ref.name.span);
      if (offset >= s.start && offset <= s.end) return ref;
    }
  }
  return undefined;
}

/** The innermost statement whose file span contains the offset (trigger bodies are not entered). */
export function statementAt(model: FileModel, offset: number): Statement | undefined {
  // A script's statements follow each other without overlapping: found by binary search (asked on every
  // keystroke, for the kind of statement typed in: server-state.ts).
  if (model.source.language === 'sql') {
    const list = model.statements;
    const stmt = list[partitionPoint(list, (s) => fileSpan(s, s.span).start <= offset) - 1];
    return stmt && offset <= fileSpan(stmt, stmt.span).end ? stmt : undefined;
  }
  let best: Statement | undefined;
  for (const stmt of model.statements) {
    const span = fileSpan(stmt, stmt.span);
    if (offset >= span.start && offset <= span.end) {
      if (!best || span.end - span.start < fileSpan(best, best.span).end - fileSpan(best, best.span).start) best = stmt;
    }
  }
  return best;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

/**
 * The SQL text of a statement. For SQL scripts it is the file slice; for SQL inside code the origin
 * maps each SQL character to a file character, so the text is rebuilt one character at a time
 * (this skips the quotes and `+` between concatenated literals and decodes simple escapes).
 */
export function statementText(model: FileModel, stmt: Statement): string {
  const text = model.source.text;
  const start = stmt.origin.toFile(stmt.span.start);
  const end = stmt.origin.toFile(stmt.span.end);
  if (model.source.language === 'sql' && end - start === stmt.span.end - stmt.span.start) return text.slice(start, end);
  let out = '';
  for (let i = stmt.span.start; i < stmt.span.end; i++) {
    const at = stmt.origin.toFile(i);
    const c = text[at] ?? '';
    if (c === '\\' && stmt.origin.toFile(i + 1) - at > 1) {
      const next = text[at + 1] ?? '';
      out += SIMPLE_ESCAPES[next] ?? next;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * What a file contributes to the shared schema model, per table name: the DDL text, and for inserts
 * only their shape (target, row count, loop, the columns they write: writeShape) so that typing inside a
 * VALUES list does not count as a schema change. Comparing two of these tells which tables an edit affected.
 */
export function schemaFacts(file: FileModel | undefined): Map<string, string[]> {
  const facts = new Map<string, string[]>();
  if (!file) return facts;
  const model = file;
  const add = (key: string, fact: string) => {
    const list = facts.get(key);
    if (list) list.push(fact);
    else facts.set(key, [fact]);
  };
  const inLoop = statementsInBulkLoops(model);
  // A script's statement says the same after an edit elsewhere (kept, moved): its fact is made once.
  const kept = model.code ? undefined : SCRIPT_FACTS;
  // Statements inside routines count too: an INSERT in a procedure makes its table an insert target.
  forEachStatement(model.statements, addFacts, { triggers: false });
  // Methods called in loops, and the types a file's classes are, lend loops across files (engine/cross-file.ts):
  // a change of either may change another file's findings (by method name, not table: any file, '*').
  for (const call of model.code?.loopCalls ?? []) add('*', `loop call ${call.name} on ${call.type}`);
  if (model.code?.types) add('*', `classes ${model.code.types.join(',')}`);
  // Python: the functions of other modules a file calls in loops (their findings are in the module's file; the
  // module's own functions change only its own).
  for (const call of model.code?.moduleCalls ?? []) add('*', `loop call ${call.callee}${call.guarded ? ' under a counter' : ''}`);
  // C/C++ functions link files by name (engine/called-inserts.ts): what a file defines, the calls it makes, and
  // the executions of a text it does not know (SQLExecute in db2ExecuteInsert()) may change another file's findings.
  for (const f of model.code?.functions ?? []) if (f.exported) add('*', `defines ${f.name}`);
  for (const c of model.code?.functionCalls ?? []) add('*', c.loop ? `calls ${c.name} in a loop${c.guarded ? ' under a counter' : ''}` : `calls ${c.name} from ${c.from}`);
  if (model.code?.functions) for (const e of model.code.executions) if (e.statements.length === 0 && e.inFunction?.name) add('*', `runs ${e.action} in ${e.inFunction.name}${e.loop ? ' in a loop' : ''}${e.batched ? ' batched' : ''}`);
  // ORM entity classes: other files' inserts of them take their table and id from here (engine/orm-entities.ts),
  // keyed by the class (the files inserting one mention it: fileNames).
  // (And under its table: a DDL file of the table it names no more, or now, has other inserts.)
  for (const e of model.code?.entities ?? []) {
    const table = e.table ? `${e.table.schema ? `${e.table.schema}.` : ''}${e.table.name}` : '';
    add(ormClassKey(e.name), `entity ${e.package ?? ''} ${table}${e.identity ? ' identity' : ''}${e.extends ? ` extends ${e.extends}` : ''}${e.mappedSuperclass ? ' mapped superclass' : ''}`);
    // A MyBatis mapper interface: its statements, which the files calling it run (engine/orm-entities.ts).
    if (e.mapper) for (const [method, sql] of Object.entries(e.mapper)) add(ormClassKey(e.name), `mapper ${method} ${sql}`);
    // A Spring Data repository interface: its query methods hinted not to flush, which the loops calling them read.
    if (e.queryFlushOff) add(ormClassKey(e.name), `repository flush off ${e.queryFlushOff.join(',')}`);
    if (e.table) add(parsedName(e.table.name), `entity ${e.package ?? ''} ${e.name}`);
  }
  // The ORM inserts of a class another file may settle: the DDL of its table counts them (FileNames.entities leads there).
  for (const e of model.code?.executions ?? []) {
    if (e.ormClass) add(ormClassKey(e.ormClass.name), `inserts ${e.ormClass.name}${e.loop ? ' in a loop' : ''}${e.batched ? ' batched' : ''}${e.ormPerCall ? ` ${e.ormPerCall}` : ''}`);
  }
  function addFacts(stmt: Statement): void {
    let fact = kept?.get(stmt);
    if (fact === undefined) {
      fact = factOf(model, stmt, inLoop);
      kept?.set(stmt, fact);
    }
    if (fact === null) return;
    const names = namesIn(stmt);
    if (names.length === 0) add('*', fact); // SET SCHEMA, DB CFG, tablespaces: may affect any table
    for (const ref of names) add(ref.name.name, fact);
  }
  return facts;
}

/**
 * The facts of a script's statements (schemaFacts), by statement. (Their concatenation per table was made
 * again on every DDL edit: 45,000 INSERTs into one table made a 1 MB string, ~30 ms of a 50,000-line script's
 * edit, issue 15.)
 */
const SCRIPT_FACTS = new WeakMap<Statement, string | null>();

/**
 * A statement's schema fact: a DDL statement's text; for an insert-like one what the schema folds from it (shapeOf, the
 * shape SchemaModel.withFileReplaced compares: target, column list, literal rows or parameters, row count, the tables
 * a query reads, a MERGE's source, sequences; issue: a DDL file's identity-cache and clustered-index-bulk-target kept
 * their findings when only these changed), whether it runs in a loop, and the columns it writes. An edit inside a
 * VALUES list that keeps these (typing a value) changes no fact, as it keeps the schema.
 */
function factOf(model: FileModel, stmt: Statement, inLoop: ReadonlySet<Statement>): string | null {
  if (DDL_KINDS.has(stmt.kind)) return statementText(model, stmt).replace(/\s+/g, ' ');
  const shape = shapeOf(stmt);
  if (shape !== undefined) return interned(`${shape} ${inLoop.has(stmt)}${writeShape(stmt)}`);
  if (stmt.kind === 'load') return stmt.kind;
  return null;
}

/**
 * Which columns of its table an insert-like statement may give a value, as text: an INSERT's column list, and
 * for it, a MERGE and an IMPORT what schema/written-columns.ts reads beyond it (fillShape: the columns given only
 * NULL or DEFAULT, a MERGE's INSERT and UPDATE column lists). The findings of the table's DDL depend on it
 * (lob-column, enforced-foreign-key: SchemaModel.insertsWriting), in whichever file the DDL is.
 */
function writeShape(stmt: Statement): string {
  return stmt.kind === 'insert' ? ` (${stmt.columns.join(',')})${fillShape(stmt)}` : fillShape(stmt);
}

/**
 * Whether an edit that kept the workspace's schema (Workspace.lastEditKeptSchema: the statements it read again have
 * the shape of those they replace) left the columns every insert-like statement writes as they were (writeShape),
 * so that the file's schema facts are those before the edit. Only the statements that are new objects are looked
 * at, those between the ones kept at the start and at the end (reparsedRange, as SchemaModel.withFileReplaced): the
 * schema keeps an edit that changes a MERGE's column lists or types NULL in place of a value, and the findings of
 * the target's DDL in another file change with it.
 */
export function sameWrites(before: FileModel, after: FileModel): boolean {
  const olds = before.statements;
  const news = after.statements;
  const { from, oldEnd, newEnd } = reparsedRange(olds, news);
  const writes = (list: readonly Statement[], start: number, end: number) => {
    const out: string[] = [];
    for (let i = start; i < end; i++) {
      const stmt = list[i];
      if (stmt.kind === 'insert' || stmt.kind === 'merge' || stmt.kind === 'import') out.push(writeShape(stmt));
    }
    return out;
  };
  const was = writes(olds, from, oldEnd);
  const is = writes(news, from, newEnd);
  return was.length === is.length && was.every((w, i) => w === is[i]);
}

/** One string per insert shape: 45,000 INSERTs hold one, and compare as the same string. */
const SHAPES = new Map<string, string>();

function interned(fact: string): string {
  const known = SHAPES.get(fact);
  if (known !== undefined) return known;
  if (SHAPES.size >= 10000) SHAPES.clear();
  SHAPES.set(fact, fact);
  return fact;
}

/** Table/sequence names (unqualified) whose facts differ; '*' means "could be any". */
export function changedNames(before: Map<string, readonly string[]>, after: Map<string, readonly string[]>): Set<string> {
  const changed = new Set<string>();
  for (const [k, v] of before) if (!sameFacts(after.get(k), v)) changed.add(k);
  for (const [k, v] of after) if (!sameFacts(before.get(k), v)) changed.add(k);
  return changed;
}

function sameFacts(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What a file's findings depend on by name (unqualified): the tables and sequences it mentions, and its copies. */
export interface FileNames {
  mentioned: ReadonlySet<string>;
  /**
   * The tables its INSERT ... SELECTs copy rows from, each with the tables they copy into: a copy of reference data
   * is no load (schema/settle.ts), so the findings on the DDL of the table copied into change with the rows of the
   * table copied from, wherever that DDL is.
   */
  copies: ReadonlyMap<string, readonly string[]>;
  /**
   * The ORM entity classes this file declares (ormClassKey), by the names whose change reaches the files inserting
   * them: the entity's table (its DDL, wherever it is) and the class it extends (an id inherited from it); and each
   * class by its table, whose DDL's findings count the inserts of the class.
   */
  entities: ReadonlyMap<string, readonly string[]>;
}

/**
 * The name an ORM entity class goes by among schemaFacts' and fileNames' names (no table or sequence name has a
 * NUL): a file whose inserts make the class mentions it, the file declaring it has facts under it.
 */
export function ormClassKey(name: string): string {
  return `\u0000class ${name}`;
}

/** A table name as SQL writes it (`orders`, `"Orders"`) as the parser names it (ORDERS, Orders). */
function parsedName(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toUpperCase();
}

/** A file's names, found once per statement list (the files not edited keep theirs: issue 15, no walk per keystroke). */
export function fileNames(model: FileModel | undefined): FileNames {
  if (!model) return NO_NAMES;
  let names = FILE_NAMES.get(model.statements);
  if (names) return names;
  const mentioned = new Set<string>();
  const copies = new Map<string, string[]>();
  for (const stmt of model.statements) for (const ref of namesIn(stmt)) mentioned.add(ref.name.name);
  forEachStatement(model.statements, (stmt) => {
    if (stmt.kind !== 'insert' || stmt.source.kind !== 'select') return;
    for (const from of stmt.source.tables) {
      const into = copies.get(from.name);
      if (!into) copies.set(from.name, [stmt.target.name]);
      else if (!into.includes(stmt.target.name)) into.push(stmt.target.name);
    }
  });
  // The classes of its ORM inserts, which another file's entities may settle; the entities it declares.
  for (const e of model.code?.executions ?? []) if (e.ormClass) mentioned.add(ormClassKey(e.ormClass.name));
  // The MyBatis mapper interfaces its calls run statements of (`com.acme.OrderMapper.insertOrder`: OrderMapper).
  for (const e of model.code?.executions ?? []) for (const id of e.mapperStatement ?? []) mentioned.add(ormClassKey(id.split('.').slice(-2, -1)[0] ?? ''));
  // The Spring Data repositories whose query methods flush its inserts (another file's interface may hint them not to).
  for (const e of model.code?.executions ?? []) for (const q of e.autoflushRepositoryQueries ?? []) mentioned.add(ormClassKey(q.type));
  const entities = new Map<string, string[]>();
  for (const e of model.code?.entities ?? []) {
    const key = ormClassKey(e.name);
    const lead = (from: string, to: string) => {
      const keys = entities.get(from);
      if (!keys) entities.set(from, [to]);
      else if (!keys.includes(to)) keys.push(to);
    };
    if (e.table) {
      lead(parsedName(e.table.name), key);
      lead(key, parsedName(e.table.name));
    }
    if (e.extends) lead(ormClassKey(e.extends), key);
  }
  names = { mentioned, copies, entities };
  FILE_NAMES.set(model.statements, names);
  return names;
}

const NO_NAMES: FileNames = { mentioned: new Set(), copies: new Map(), entities: new Map() };
const FILE_NAMES = new WeakMap<readonly Statement[], FileNames>();

/**
 * The files among `files` whose findings may change when the facts of the tables `changed` names do: those that
 * mention one, or a table some file copies into from one (FileNames.copies: one level, as settle.ts looks through
 * one), or insert an ORM entity class whose table or superclass is one (FileNames.entities). '*' in `changed`: every
 * file.
 */
export function dependentFiles<T>(files: readonly { key: T; names: FileNames }[], changed: ReadonlySet<string>, leads: readonly { names: FileNames }[] = files): T[] {
  if (changed.has('*')) return files.map((f) => f.key);
  const reached = new Set(changed);
  // (`leads`: the files whose copies and entities lead on, when more than those among which dependents are looked for.)
  for (const { names } of leads) {
    if (names.copies.size === 0 && names.entities.size === 0) continue;
    for (const name of changed) for (const into of names.copies.get(name) ?? []) reached.add(into);
    // A table's DDL, or a class an entity extends: the files inserting the entity (ormClassKey).
    for (const name of changed) for (const cls of names.entities.get(name) ?? []) reached.add(cls);
  }
  const out: T[] = [];
  for (const { key, names } of files) {
    for (const name of reached) {
      if (names.mentioned.has(name)) {
        out.push(key);
        break;
      }
    }
  }
  return out;
}

/**
 * Where "Explain this INSERT" lenses go: INSERTs (and MERGEs that insert), but in a run of INSERTs into the
 * same table with nothing between them (a script of 5,000 single-row INSERTs) only the first: their plans
 * are the same, and a lens on every line would double the script's height.
 */
export function insertStatements(model: FileModel): Statement[] {
  const out: Statement[] = [];
  let previousTarget: string | undefined;
  for (const s of model.statements) {
    const target = s.kind === 'insert' ? `${s.target.schema ?? ''}.${s.target.name}/${s.source.kind}` : undefined;
    if (s.kind === 'merge' && s.hasInsert) out.push(s);
    else if (target !== undefined && target !== previousTarget) out.push(s);
    previousTarget = target;
  }
  return out;
}
