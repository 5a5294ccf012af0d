// `check --jobs N`: SQL scripts read (parsed) in worker threads. A FileModel cannot be rebuilt from plain
// findings (rules need every file's statements through the shared schema), so workers only parse and send
// the model back (ship-model.ts); the main thread adds the models in file order and runs the rules as a
// single-threaded run does, so the output is the same by construction. A very large script is cut into
// statement-aligned pieces read at once by several workers and joined on the main thread (sql/pieces.ts).
// Code files, and any script whose model cannot travel or whose pieces do not join, are read on the main thread.
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { buildFileModel, timedOutModel } from '../engine/workspace-files';
import { noteTerminator, scriptModel } from '../engine/script-read';
import { DeadlineExceeded, withDeadline } from '../engine/deadline';
import type { Dialect, FileModel, SourceFile } from '../engine/types';
import { scriptTerminator } from '../sql/parser';
import { scanTerminator, type SemicolonComment } from '../sql/terminator';
import { cutScript, joinPieces, parsePiece, type ParsedPiece, type ScriptPiece } from '../sql/pieces';
import { packModel, unpackModel } from './ship-model';
import { nowMs } from '../engine/clock';

/**
 * node:worker_threads, loaded on first use: it costs a few ms to load, and most runs use no worker. (A worker
 * thread has it loaded already.)
 */
function threads(): typeof import('node:worker_threads') {
  return require('node:worker_threads') as typeof import('node:worker_threads');
}

/** Set in the argv of the threads parseInWorkers starts, so that a run on the main thread can tell without loading node:worker_threads. */
const WORKER_ARG = '--insertlint-parse-worker';

/** Under this much script text a run stays on the main thread: starting a worker costs about 100 ms. */
export const MIN_PARALLEL_CHARS = 2 * 2 ** 20;

/** A script at least this long is read in pieces by several workers (about a third of a second of parsing). */
export const MIN_PIECE_CHARS = 8 * 2 ** 20;

export interface ParseTask {
  path: string;
  text: string;
  /** The configured terminator and dialect (undefined: inferred), as Workspace.setFile passes them. */
  terminator?: string;
  dialect?: Dialect;
}

export interface ParsedScript {
  model: FileModel;
  readMs: number;
}

/** A whole script to read, or one piece of a script (`piece`: its index and place, with the terminator chosen). */
interface TaskMessage {
  id: number;
  budgetMs: number;
  path: string;
  text: string;
  terminator?: string;
  dialect?: Dialect;
  piece?: { index: number } & ScriptPiece;
  /** Of a piece of a script whose terminator is inferred: what the inference found (noteTerminator). */
  semicolonComment?: SemicolonComment;
}

interface ResultMessage {
  id: number;
  piece?: number;
  /** Absent when the model could not travel or reading it threw: the main thread reads that file. */
  model?: FileModel;
  /** The piece ran past the time budget (the script is then left out, as when read whole). */
  timedOut?: string;
  nextStart?: number;
  stateful?: boolean;
  readMs: number;
}

/**
 * The default of --jobs: 1. Measured on 2 cores (bench/RESULTS.md), reading scripts in workers made runs
 * slower, not faster: receiving a model costs about half of parsing it, and two parsers in parallel each ran
 * at about half speed; so more threads are asked for, never assumed.
 */
export const DEFAULT_JOBS = 1;

/** The cores this process may use (what `--jobs 0` asks for). */
export function availableCores(): number {
  return Math.max(1, availableParallelism());
}

/** How many workers to start for these scripts (0: read them on the main thread). */
export function workerCount(jobs: number, tasks: readonly ParseTask[]): number {
  if (jobs <= 1 || tasks.length === 0) return 0;
  let chars = 0;
  let units = 0;
  for (const task of tasks) {
    chars += task.text.length;
    units += task.text.length >= MIN_PIECE_CHARS ? jobs : 1;
  }
  return chars < MIN_PARALLEL_CHARS || units < 2 ? 0 : Math.min(jobs, units);
}

/** The messages that read the tasks: a large script as one message per piece, largest work first. */
function taskMessages(tasks: readonly ParseTask[], workers: number, budgetMs: number): TaskMessage[] {
  const messages: TaskMessage[] = [];
  tasks.forEach((task, id) => {
    if (workers >= 2 && task.text.length >= MIN_PIECE_CHARS) {
      const scan = task.terminator === undefined ? scanTerminator(task.text, { name: task.path }) : undefined;
      const terminator = scriptTerminator(task.text, task.terminator, scan);
      const pieces = cutScript(task.text, terminator, workers);
      if (pieces && pieces.length > 1) {
        const semicolonComment = scan?.semicolonComment;
        pieces.forEach((piece, index) => messages.push({ id, budgetMs, path: task.path, text: task.text, terminator, dialect: task.dialect, piece: { index, ...piece }, ...(semicolonComment && { semicolonComment }) }));
        return;
      }
    }
    messages.push({ id, budgetMs, ...task });
  });
  const size = (m: TaskMessage) => (m.piece ? (m.piece.until ?? m.text.length) - m.piece.from : m.text.length);
  return messages.sort((a, b) => size(b) - size(a));
}

/** The pieces of one script as they come back; the script's model once all are in. */
class PieceJoin {
  private readonly parsed: (ParsedPiece | undefined)[];
  private missing: number;
  private timedOut: string | undefined;
  private failed = false;
  /** The pieces' reading times added up: what reading the script on one thread would have taken. */
  private readMs = 0;

  constructor(
    private readonly task: ParseTask,
    private readonly pieces: ScriptPiece[],
    private readonly budgetMs: number,
    private readonly started: number,
    private readonly semicolonComment: SemicolonComment | undefined,
  ) {
    this.parsed = new Array(pieces.length).fill(undefined);
    this.missing = pieces.length;
  }

  /** Adds a piece; the script once the last piece is in (undefined: the main thread reads it whole). */
  add(result: ResultMessage): ParsedScript | undefined {
    this.readMs += result.readMs;
    if (result.timedOut) this.timedOut = result.timedOut;
    else if (!result.model) this.failed = true;
    else {
      const model = unpackModel(result.model, scriptSource(this.task));
      this.parsed[result.piece!] = { statements: model.statements, comments: model.comments, nextStart: result.nextStart, stateful: result.stateful === true };
    }
    if (--this.missing > 0) return undefined;
    const readMs = nowMs() - this.started;
    const source = scriptSource(this.task);
    // The budget is per file, as if read on one thread: pieces that together took longer leave the script
    // out as --jobs 1 would (each piece also stops at the budget, so none runs on for long).
    if (!this.timedOut && this.readMs > this.budgetMs) this.timedOut = new DeadlineExceeded(this.budgetMs).message;
    if (this.timedOut) return { model: timedOutModel(source, this.timedOut), readMs };
    const joined = this.failed ? undefined : joinPieces(this.pieces, this.parsed as ParsedPiece[]);
    if (process.env.INSERTLINT_TRACE_JOBS) process.stderr.write(`insertlint: ${this.task.path}: ${joined ? `read in ${this.pieces.length} pieces` : 'pieces did not join, read whole'}\n`);
    if (!joined) return undefined;
    const model = scriptModel(source, joined, this.task.dialect);
    noteTerminator(model, this.task.terminator, this.semicolonComment);
    return { model, readMs };
  }
}

/** The source of a script task (the text never travels back from a worker: ship-model.ts puts it back). */
function scriptSource(task: { path: string; text: string }): SourceFile {
  return { path: task.path, text: task.text, language: 'sql' };
}

/**
 * Parses the scripts in `workers` threads started from `script` (the CLI bundle); result i is task i's
 * model, or undefined for a script the main thread must read itself.
 */
export async function parseInWorkers(script: string, tasks: readonly ParseTask[], workers: number, budgetMs: number): Promise<(ParsedScript | undefined)[]> {
  const results: (ParsedScript | undefined)[] = new Array(tasks.length).fill(undefined);
  const messages = taskMessages(tasks, workers, budgetMs);
  const joins = new Map<number, PieceJoin>();
  let next = 0;
  const runOne = (worker: Worker) =>
    new Promise<void>((resolve) => {
      const send = () => {
        if (next >= messages.length) {
          resolve();
          return;
        }
        const message = messages[next++];
        if (message.piece && !joins.has(message.id)) {
          const pieces = messages.filter((m) => m.id === message.id).sort((a, b) => a.piece!.index - b.piece!.index).map((m) => ({ from: m.piece!.from, until: m.piece!.until }));
          joins.set(message.id, new PieceJoin(tasks[message.id], pieces, budgetMs, nowMs(), message.semicolonComment));
        }
        worker.postMessage(message);
      };
      worker.on('message', (result: ResultMessage) => {
        const task = tasks[result.id];
        if (result.piece !== undefined) results[result.id] = joins.get(result.id)!.add(result);
        else if (result.model) results[result.id] = { model: unpackModel(result.model, scriptSource(task)), readMs: result.readMs };
        send();
      });
      // A worker that dies leaves its script, and those it had not taken, to the others or the main thread.
      worker.on('error', () => resolve());
      worker.on('exit', () => resolve());
      send();
    });
  const { Worker } = threads();
  const pool = Array.from({ length: workers }, () => new Worker(script, { argv: [WORKER_ARG], workerData: { insertlintParseWorker: true } }));
  // For the tests (test/install/jobs.test.ts): proof that workers ran, without changing the output otherwise.
  if (process.env.INSERTLINT_TRACE_JOBS) process.stderr.write(`insertlint: reading ${tasks.length} scripts in ${workers} worker threads\n`);
  try {
    await Promise.all(pool.map(runOne));
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return results;
}

/** True in a thread started by parseInWorkers. */
export function isParseWorker(): boolean {
  if (!process.argv.includes(WORKER_ARG)) return false;
  const { isMainThread, workerData } = threads();
  return !isMainThread && (workerData as { insertlintParseWorker?: boolean } | undefined)?.insertlintParseWorker === true;
}

/** The worker's side: reads each script or piece it is sent as Workspace.setFile would, and sends the model back. */
export function runParseWorker(): void {
  const { parentPort } = threads();
  parentPort!.on('message', (task: TaskMessage) => {
    const started = nowMs();
    const result: ResultMessage = task.piece ? { id: task.id, piece: task.piece.index, readMs: 0 } : { id: task.id, readMs: 0 };
    let model: FileModel | undefined;
    // The text stays here: the main thread has it (a marker travels instead, ship-model.ts).
    const source = scriptSource(task);
    try {
      model = withDeadline(task.budgetMs, () => {
        if (!task.piece) return buildFileModel(source, [], task.terminator, { driverModules: [] }, task.dialect);
        const parsed = parsePiece(task.text, task.terminator!, task.piece);
        result.nextStart = parsed.nextStart;
        result.stateful = parsed.stateful;
        return { source, statements: parsed.statements, comments: parsed.comments };
      });
    } catch (error) {
      if (!(error instanceof DeadlineExceeded)) model = undefined;
      else if (task.piece) result.timedOut = error.message;
      else model = timedOutModel(source, error.message);
    }
    result.readMs = nowMs() - started;
    const packed = model && packModel(model);
    if (packed) result.model = packed;
    parentPort!.postMessage(result);
  });
}
