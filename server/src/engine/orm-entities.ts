// ORM inserts of an entity class another file declares: `em.persist(new Order(item))` in Loader.java with
// `@Entity @Table(name = "ORDERS", schema = "APP") class Order` in Order.java, `session.add(Order(...))` in loader.py
// after `from models import Order`, models.py declaring `__tablename__ = "orders"`. The front ends record the
// entities each file declares (CodeModel.entities) and the class each ORM insert makes (SqlExecution.ormClass, with
// the qualified names the file's package and imports make of it); the engine looks the class up here, by name, and
// rewrites its view of the inserting file (as cross-file.ts lends loops): the INSERT names the entity's table
// (`INSERT INTO APP.ORDERS VALUES (?)`, a statement of the file the schema and the SQL rules see), and a Java entity
// whose id is IDENTITY, its own or inherited from a @MappedSuperclass, goes one row per call (ormPerCall).
//
// Which class: those of the name whose qualified name is one the file names (Java: `com.acme.model.Order` by an
// import, the file's package or a wildcard import; Python: `app.models.Order`, a module a path of the file ends
// with, cross-file.ts modulesOf; JavaScript/TypeScript: `js:models.Order` for the module an import names, each tail of
// the model file's path and folder, jsModulesOf, or `js:Order` when the file names no module:
// Sequelize's models, by the name define / init gives them). When the file does not say (no package, no import binding the name), every class
// of the name. Several that do not agree on table and id: nothing is settled (`<Order>` stays).
import type { FileModel } from './types';
import type { OrmEntity, SqlExecution } from '../code-model/types';
import { modulesOf } from './cross-file';
import { parseSql } from '../sql/parser';
import type { SqlOrigin, Statement } from '../sql/ast';

/** An entity of a file, with the qualified names it is known by. */
export interface IndexedEntity {
  entity: OrmEntity;
  /** Java: `package.Name`; Python: `py:<module>.Name` for each module the file's path may be imported as. */
  qualified: readonly string[];
  file: string;
}

/**
 * Entity classes by qualified name (`com.acme.model.Order`, `py:app.models.Order`) and by simple name: an insert
 * looks up the few its file names, or those of its class's name, never every file; the answers for a simple name
 * and a superclass are kept (many loaders insert one class).
 */
export interface EntityIndex {
  byQualified: ReadonlyMap<string, readonly IndexedEntity[]>;
  byName: ReadonlyMap<string, readonly IndexedEntity[]>;
  settledByName: Map<string, Settled | null>;
  identityByName: Map<string, boolean>;
  /** MyBatis mapper statements by qualified id (`com.acme.OrderMapper.insertOrder`): their SQL texts (OrmEntity.mapper). */
  statements: ReadonlyMap<string, readonly string[]>;
  /**
   * Spring Data repository interfaces with query methods hinted to flush at COMMIT or MANUAL (OrmEntity.queryFlushOff),
   * by qualified name and by simple name.
   */
  repositoriesByQualified: ReadonlyMap<string, readonly IndexedRepository[]>;
  repositoriesByName: ReadonlyMap<string, readonly IndexedRepository[]>;
}

/** A repository interface of a file: its name and the query methods hinted not to flush. */
interface IndexedRepository {
  name: string;
  flushOff: ReadonlySet<string>;
}

/**
 * The entities of all files, with the MyBatis statements of mapper XML files (`xmlStatements`, by qualified id: the
 * SQL text, null when not settled, cli/evidence-java.ts mybatisMapperStatements); undefined when there are none
 * (most workspaces).
 */
export function entityIndex(models: Iterable<FileModel>, xmlStatements?: ReadonlyMap<string, readonly (string | null)[]>): EntityIndex | undefined {
  let index: { byQualified: Map<string, IndexedEntity[]>; byName: Map<string, IndexedEntity[]>; statements: Map<string, string[]>; repositoriesByQualified: Map<string, IndexedRepository[]>; repositoriesByName: Map<string, IndexedRepository[]> } | undefined;
  const made = () => ({ byQualified: new Map(), byName: new Map(), statements: new Map(), repositoriesByQualified: new Map(), repositoriesByName: new Map() });
  const push = <T>(map: Map<string, T[]>, key: string, entity: T) => {
    const list = map.get(key);
    if (list) list.push(entity);
    else map.set(key, [entity]);
  };
  if (xmlStatements && xmlStatements.size > 0) {
    index = made();
    // (A statement not settled is an empty text: no INSERT is parsed of it, and beside another text of its id, the
    // id names no one text.)
    for (const [id, texts] of xmlStatements) for (const text of texts) push(index.statements, id, text ?? '');
  }
  for (const model of models) {
    const entities = model.code?.entities;
    if (!entities) continue;
    const path = model.source.path;
    const language = model.source.language;
    const js = language === 'javascript' || language === 'typescript';
    const modules = language === 'python' ? modulesOf(path) : js ? jsModulesOf(path).map((m) => `js:${m}`) : undefined;
    for (const entity of entities) {
      if (entity.mapper) {
        // A MyBatis mapper interface: its statements by id, not an entity.
        index ??= made();
        const namespace = entity.package ? `${entity.package}.${entity.name}` : entity.name;
        for (const [method, sql] of Object.entries(entity.mapper)) push(index.statements, `${namespace}.${method}`, sql);
        continue;
      }
      if (entity.queryFlushOff) {
        // A Spring Data repository interface: its query methods hinted not to flush, not an entity.
        index ??= made();
        const repository = { name: entity.name, flushOff: new Set(entity.queryFlushOff) };
        push(index.repositoriesByQualified, entity.package ? `${entity.package}.${entity.name}` : entity.name, repository);
        push(index.repositoriesByName, entity.name, repository);
        continue;
      }
      // JavaScript: also `js:Order`, for an insert whose file does not say which module gives the model (sequelize.models.Order).
      const qualified = modules ? [...modules.map((m) => `${m}.${entity.name}`), ...(js ? [`js:${entity.name}`] : [])] : [entity.package ? `${entity.package}.${entity.name}` : entity.name];
      index ??= made();
      const indexed = { entity, qualified, file: path };
      // (A JavaScript insert always says its key (ormClass.from): by name, only Java and Python classes, never mixed.)
      if (!js) push(index.byName, entity.name, indexed);
      for (const q of qualified) push(index.byQualified, q, indexed);
    }
  }
  return index && { ...index, settledByName: new Map(), identityByName: new Map() };
}

/**
 * The keys a JavaScript/TypeScript file's models are known by in the entity index (entityIndex), without
 * the `js:` prefix and the model's name: each tail of its path (`order`, `models/order`, `src/models/order`; an
 * index.js its folder's), and each tail of its folder (`models`, `src/models`: sequelize-cli's models/index.js loader
 * gathers the folder's models under their names).
 */
export function jsModulesOf(path: string): string[] {
  const parts = path.replace(/\\/g, '/').replace(/\.(?:[cm]?[jt]sx?)$/, '').split('/');
  if (parts[parts.length - 1] === 'index') parts.pop();
  const out: string[] = [];
  for (let i = parts.length - 1, name = ''; i >= 0 && parts[i] && out.length < 24; i--) {
    name = name ? `${parts[i]}/${name}` : parts[i];
    out.push(name);
  }
  for (let i = parts.length - 2, name = ''; i >= 0 && parts[i] && out.length < 48; i--) {
    name = name ? `${parts[i]}/${name}` : parts[i];
    out.push(name);
  }
  return out;
}

/** What an insert takes from its class: the table (undefined when not settled) and whether the id is IDENTITY. */
export interface Settled {
  table?: { name: string; schema?: string };
  identity: boolean;
}

/**
 * `model` with its ORM inserts of other files' entity classes (or of its own, whose id is inherited from another
 * file's @MappedSuperclass) settled: the table named in the statement, IDENTITY's one row per call. `model` itself
 * when nothing changes.
 */
export function withOrmEntities(model: FileModel, index: EntityIndex | undefined): FileModel {
  const code = model.code;
  if (!index || !code) return model;
  const python = model.source.language === 'python';
  const prefix = python ? 'py:' : model.source.language === 'javascript' || model.source.language === 'typescript' ? 'js:' : '';
  let executions: SqlExecution[] | undefined;
  let added: Statement[] | undefined;
  code.executions.forEach((execution, i) => {
    let e = execution;
    if (e.autoflushRepositoryQueries) {
      // Spring Data query methods that flush the insert on every pass: not those another file's repository interface
      // hints to flush at COMMIT or MANUAL; with none left, the flush after the loop sends the inserts together.
      const left = e.autoflushRepositoryQueries.filter((q) => !flushOffHinted(index, q));
      if (left.length < e.autoflushRepositoryQueries.length) {
        if (left.length > 0) e = { ...e, autoflushedBy: left[0].query, autoflushRepositoryQueries: left };
        else {
          e = { ...e, batched: true };
          delete e.autoflushedBy;
          delete e.autoflushRepositoryQueries;
        }
        executions ??= [...code.executions];
        executions[i] = e;
      }
    }
    if (e.mapperStatement) {
      // A MyBatis mapper call: the statement's text, when the ids it may have name one text.
      const texts = new Set(e.mapperStatement.flatMap((id) => index.statements.get(id) ?? []));
      const statements = texts.size === 1 ? parsedOver([...texts][0], e) : [];
      if (statements.length === 0) return;
      executions ??= [...code.executions];
      executions[i] = { ...e, statements, textKind: 'constant' };
      (added ??= []).push(...statements);
      return;
    }
    const cls = e.ormClass;
    if (!cls) return;
    const settled = settle(index, cls, prefix);
    if (!settled) return;
    let changed: SqlExecution | undefined;
    // The class spliced where the table goes (`INSERT INTO <Order>`): the entity's table instead.
    if (settled.table && e.textKind === 'template') {
      const statements = insertInto(settled.table, e);
      if (statements.length > 0) {
        changed = { ...e, statements, textKind: 'constant' };
        delete changed.splices;
        (added ??= []).push(...statements);
      }
    }
    // Hibernate inserts an IDENTITY entity at persist(), one row per call, whatever the code flushes.
    if (settled.identity && !python && e.ormPerCall !== 'identity') {
      changed = { ...(changed ?? e), ormPerCall: 'identity', batched: false };
    }
    if (!changed) return;
    executions ??= [...code.executions];
    executions[i] = changed;
  });
  if (!executions) return model;
  const statements = added ? [...model.statements, ...added].sort((a, b) => a.origin.toFile(a.span.start) - b.origin.toFile(b.span.start)) : model.statements;
  return { ...model, statements, code: { ...code, executions } };
}

/**
 * Whether a repository query method is hinted to flush at COMMIT or MANUAL: by every interface of the repository's type
 * that the file may mean (those of its qualified names; the file not saying, every one of its name), one at least.
 */
function flushOffHinted(index: EntityIndex, q: NonNullable<SqlExecution['autoflushRepositoryQueries']>[number]): boolean {
  const candidates = q.from ? q.from.flatMap((name) => index.repositoriesByQualified.get(name) ?? []).filter((r) => r.name === q.type) : (index.repositoriesByName.get(q.type) ?? []);
  return candidates.length > 0 && candidates.every((r) => r.flushOff.has(q.method));
}

/** The entity an insert's class is, when the candidates of its name that the file may mean agree; else undefined. */
function settle(index: EntityIndex, cls: NonNullable<SqlExecution['ormClass']>, prefix: string): Settled | undefined {
  if (!cls.from) {
    // The file does not say: every class of the name (the answer kept for the name).
    let known = index.settledByName.get(cls.name);
    if (known === undefined) index.settledByName.set(cls.name, (known = agreed(index, index.byName.get(cls.name) ?? []) ?? null));
    return known ?? undefined;
  }
  const meant = new Set<IndexedEntity>();
  for (const q of cls.from) for (const c of index.byQualified.get(prefix + q) ?? []) if (c.entity.name === cls.name) meant.add(c);
  return agreed(index, [...meant]);
}

/** What the entities (not @MappedSuperclass) among `candidates` settle, when they agree on table and id; else undefined. */
function agreed(index: EntityIndex, candidates: readonly IndexedEntity[]): Settled | undefined {
  let settled: Settled | undefined;
  for (const c of candidates) {
    if (c.entity.mappedSuperclass) continue;
    const one: Settled = { ...(c.entity.table ? { table: c.entity.table } : {}), identity: identityOf(index, c.entity, 0) };
    if (!settled) settled = one;
    else if (!sameTable(settled.table, one.table) || settled.identity !== one.identity) return undefined;
  }
  return settled;
}

/**
 * An IDENTITY id of the class's own, or of the class it extends (a @MappedSuperclass or entity of the workspace, all
 * of that name agreeing), up the chain; kept per superclass name.
 */
function identityOf(index: EntityIndex, entity: OrmEntity, depth: number): boolean {
  if (entity.identity) return true;
  const base = entity.extends;
  if (!base || depth >= MAX_SUPERCLASSES) return false;
  const known = index.identityByName.get(base);
  if (known !== undefined) return known;
  const bases = index.byName.get(base) ?? [];
  const answer = bases.length > 0 && bases.every((b) => identityOf(index, b.entity, depth + 1));
  // (A chain cut short by the depth is not kept: asked from nearer its top, it may reach further.)
  if (depth === 0) index.identityByName.set(base, answer);
  return answer;
}

/** How many classes up an inherited id is looked for (Order → AuditedEntity → BaseEntity). */
const MAX_SUPERCLASSES = 4;

function sameTable(a: Settled['table'], b: Settled['table']): boolean {
  return a?.name === b?.name && a?.schema === b?.schema;
}

/**
 * The INSERT the ORM sends into `table`, over the execution's call, as the front ends make it when the table is in
 * the file (python-sqlalchemy-inserts.ts insertText): `INSERT INTO S.T VALUES (?)`, each character on the call.
 */
function insertInto(table: { name: string; schema?: string }, e: SqlExecution): Statement[] {
  return parsedOver(`INSERT INTO ${table.schema ? `${table.schema}.` : ''}${table.name} VALUES (?)`, e);
}

/** An INSERT text parsed with each character on the execution's call; none unless it is one INSERT without errors. */
function parsedOver(text: string, e: SqlExecution): Statement[] {
  const { start, end } = e.callSpan;
  const last = Math.max(start, end - 1);
  const at = (offset: number) => Math.min(start + Math.max(0, offset), last);
  // (Past the text's end: one past its last character, as code/sqltext.ts maps a text's end.)
  const origin: SqlOrigin = { toFile: (offset) => (offset >= text.length ? at(text.length - 1) + 1 : at(offset)), extent: { start, end } };
  const parsed = parseSql(text, { origin }).statements;
  return parsed.length === 1 && parsed[0].kind === 'insert' && !parsed[0].parseError ? parsed : [];
}
