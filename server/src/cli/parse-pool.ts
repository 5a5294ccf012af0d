// `check --jobs N`: SQL scripts read (parsed) in worker threads. A FileModel cannot be rebuilt from plain
// findings (rules need every file's statements through the shared schema), so workers only parse and send
// the model back (ship-model.ts); the main thread adds the models in file order and runs the rules as a
// single-threaded run does, so the output is the same by construction. Code files, and any script whose model
// cannot travel, are read on the main thread.
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { buildFileModel } from '../engine/workspace';
import { DeadlineExceeded, withDeadline } from '../engine/deadline';
import type { Dialect, FileModel } from '../engine/types';
import { packModel, unpackModel } from './ship-model';

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

interface TaskMessage extends ParseTask {
  id: number;
  budgetMs: number;
}

interface ResultMessage {
  id: number;
  /** Absent when the model could not travel or reading it threw: the main thread reads that file. */
  model?: FileModel;
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
  if (jobs <= 1 || tasks.length < 2) return 0;
  let chars = 0;
  for (const task of tasks) chars += task.text.length;
  return chars < MIN_PARALLEL_CHARS ? 0 : Math.min(jobs, tasks.length);
}

/**
 * Parses the scripts in `workers` threads started from `script` (the CLI bundle); result i is task i's
 * model, or undefined for a script the main thread must read itself.
 */
export async function parseInWorkers(script: string, tasks: readonly ParseTask[], workers: number, budgetMs: number): Promise<(ParsedScript | undefined)[]> {
  const results: (ParsedScript | undefined)[] = new Array(tasks.length).fill(undefined);
  // Largest first, so no worker is left with a big script at the end while the others wait.
  const order = tasks.map((_, i) => i).sort((a, b) => tasks[b].text.length - tasks[a].text.length);
  let next = 0;
  const runOne = (worker: Worker) =>
    new Promise<void>((resolve) => {
      const send = () => {
        if (next >= order.length) {
          resolve();
          return;
        }
        const id = order[next++];
        const message: TaskMessage = { id, budgetMs, ...tasks[id] };
        worker.postMessage(message);
      };
      worker.on('message', (result: ResultMessage) => {
        if (result.model) results[result.id] = { model: unpackModel(result.model, { path: tasks[result.id].path, text: tasks[result.id].text, language: 'sql' }), readMs: result.readMs };
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

/** The worker's side: reads each script it is sent as Workspace.setFile would, and sends the model back. */
export function runParseWorker(): void {
  const { parentPort } = threads();
  parentPort!.on('message', (task: TaskMessage) => {
    const started = performance.now();
    let model: FileModel | undefined;
    const source = { path: task.path, text: task.text, language: 'sql' as const };
    try {
      model = withDeadline(task.budgetMs, () => buildFileModel(source, [], task.terminator, { driverModules: [] }, task.dialect));
    } catch (error) {
      if (error instanceof DeadlineExceeded) model = { source, statements: [], comments: [], leftOut: error.message, timedOut: true };
    }
    const readMs = performance.now() - started;
    const result: ResultMessage = { id: task.id, readMs };
    const packed = model && packModel(model);
    if (packed) result.model = packed;
    parentPort!.postMessage(result);
  });
}
