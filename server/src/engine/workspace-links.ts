// WorkspaceLinks, the layer of Workspace (workspace.ts) over the file store that links files: the loops of
// other files that call a file's methods (cross-file.ts), the C/C++ functions of other files that run a
// single-row INSERT per call (called-inserts.ts), and the C/C++ files read again once such a function is known.
// A model as the schema and the rules see it carries these links (withLentLoops).
import { callerIndex, withCallersLoops, type CallerIndex } from './cross-file';
import { functionIndex, insertFunctionNames, namesCalledIn, withCalledInserts, type FunctionIndex } from './called-inserts';
import { entityIndex, withOrmEntities, type EntityIndex } from './orm-entities';
import type { FileModel } from './types';
import { WorkspaceFiles } from './workspace-files';

export abstract class WorkspaceLinks extends WorkspaceFiles {
  /** A linted file's model, read again first when the members it includes or the functions it calls changed. */
  model(path: string): FileModel | undefined {
    this.refreshIncluders();
    this.refreshLinked();
    return this.files.get(path)?.model;
  }

  /**
   * A linted file's model as the schema and the rules see it, with what other files lend it (withLentLoops): the
   * INSERT of an entity class another file declares is among its statements (the summary counts it).
   */
  linkedModel(path: string): FileModel | undefined {
    const model = this.model(path);
    return model && this.withLentLoops(model);
  }

  /** The generation refreshLinked last looked at. */
  private linkedGeneration = -1;

  /**
   * Reads again the C/C++ files left out that call a function another file defines that runs a single-row INSERT:
   * db2_fdw's db2ExecForeignInsert.c calls db2ExecuteInsert(), and once read, db2ExecForeignBatchInsert.c, which
   * calls db2ExecForeignInsert(), is read in the next round. A round per level of such calls, a few at most.
   */
  protected refreshLinked(): void {
    if (this.linkedGeneration === this.generation) return;
    for (let round = 0; round < MAX_LINK_ROUNDS; round++) {
      const fresh = [...insertFunctionNames(this.calledIndex())].filter((name) => !this.insertFunctions.has(name));
      if (fresh.length === 0) break;
      for (const name of fresh) this.insertFunctions.add(name);
      const freshSet = new Set(fresh);
      let reread = false;
      for (const [path, entry] of this.files) {
        const model = entry.model;
        if (!model.leftOut || model.timedOut || (model.source.language !== 'c' && model.source.language !== 'cpp')) continue;
        const called = namesCalledIn(model);
        // Over the smaller of the two (many functions, or a long file calling many names).
        const calls = fresh.length <= called.size ? fresh.some((name) => called.has(name)) : [...called].some((name) => freshSet.has(name));
        if (!calls) continue;
        const read = this.newEntry(model.source, entry.terminator);
        if (read.model.leftOut) continue;
        this.files.set(path, read);
        reread = true;
      }
      if (!reread) break;
      this.invalidate();
    }
    this.linkedGeneration = this.generation;
  }

  /**
   * The C/C++ functions of all files (called-inserts.ts), looked at once per generation and made again only when a
   * file that defines functions changed: a keystroke in a script of a 2,000-file workspace with C sources in it
   * must not index every C function again.
   */
  private calledIndex(): FunctionIndex | undefined {
    return this.functionIndexes.get(this.generation, this.files.values());
  }

  private readonly functionIndexes = new IndexOfModels((model) => !!model.code?.functions, functionIndex);

  /** The loops of all files that call methods on typed receivers (cross-file.ts), made once per generation. */
  private callers(): CallerIndex | undefined {
    if (this.callersCache?.generation !== this.generation) {
      this.callersCache = { generation: this.generation, index: callerIndex([...this.files.values()].map((f) => f.model)) };
    }
    return this.callersCache.index;
  }

  private callersCache?: { generation: number; index: CallerIndex | undefined };

  /**
   * The ORM entity classes of all files (orm-entities.ts), made again only when a file that declares entities
   * changed (a keystroke in a loader keeps the index, and the views made with it).
   */
  private entities(): EntityIndex | undefined {
    return this.entityIndexes.get(this.generation, this.files.values());
  }

  private readonly entityIndexes = new IndexOfModels((model) => !!model.code?.entities, (models) => entityIndex(models, this.mybatisStatements));

  /** MyBatis mapper XML statements by qualified id, as the CLI and the language server find them on disk (setMybatisStatements). */
  private mybatisStatements: ReadonlyMap<string, readonly (string | null)[]> = new Map();

  /**
   * New MyBatis mapper XML statements (cli/evidence-java.ts mybatisMapperStatements: qualified id to the SQL texts,
   * null for one not settled). When they changed, the index of mapper statements is made again (no file is read
   * again: a call records the ids it may run, engine/orm-entities.ts); returns whether they changed (the editor
   * publishes the files again).
   */
  setMybatisStatements(statements: ReadonlyMap<string, readonly (string | null)[]>): boolean {
    const old = this.mybatisStatements;
    const same = statements.size === old.size && [...statements].every(([id, texts]) => {
      const was = old.get(id);
      return was !== undefined && was.length === texts.length && was.every((t, i) => t === texts[i]);
    });
    if (same) return false;
    this.mybatisStatements = statements;
    this.entityIndexes.reset();
    this.invalidate();
    return true;
  }

  /** A model with the loops other files lend its methods, made once per model and caller index (schema, then rules). */
  protected withLentLoops(model: FileModel): FileModel {
    const index = this.callers();
    const called = this.calledIndex();
    const entities = this.entities();
    const known = this.lentViews.get(model);
    if (known && known.index === index && known.called === called && known.entities === entities) return known.view;
    // With the tables of the entity classes other files declare (orm-entities.ts); and the executions C/C++ functions
    // of other files run per call of a loop here (called-inserts.ts).
    const view = withCalledInserts(withCallersLoops(withOrmEntities(model, entities), index), called);
    if (view !== model) this.lentViews.set(model, { index, called, entities, view });
    return view;
  }

  private readonly lentViews = new WeakMap<FileModel, { index: CallerIndex | undefined; called: FunctionIndex | undefined; entities: EntityIndex | undefined; view: FileModel }>();
}

/** Rounds of reading C/C++ files that reach Db2 through another file's function (Workspace.refreshLinked). */
const MAX_LINK_ROUNDS = 4;

/**
 * An index over the models of the files that contribute to it (that define C functions, that declare entities), looked
 * at once per generation and made again only when those models changed: a keystroke elsewhere keeps it.
 */
class IndexOfModels<T> {
  private cached?: { generation: number; models: FileModel[]; index: T };

  constructor(
    private readonly contributes: (model: FileModel) => boolean,
    private readonly make: (models: FileModel[]) => T,
  ) {}

  /** Made again at the next get (what `make` reads besides the models changed). */
  reset(): void {
    this.cached = undefined;
  }

  get(generation: number, files: Iterable<{ model: FileModel }>): T {
    const cached = this.cached;
    if (cached?.generation === generation) return cached.index;
    const models: FileModel[] = [];
    for (const entry of files) if (this.contributes(entry.model)) models.push(entry.model);
    const same = cached !== undefined && cached.models.length === models.length && cached.models.every((m, i) => m === models[i]);
    this.cached = { generation, models, index: same ? cached.index : this.make(models) };
    return this.cached.index;
  }
}
