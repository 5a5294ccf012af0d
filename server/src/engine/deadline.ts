// A time budget per file, for reading it and, apart, for running the rules on it. JavaScript cannot stop a
// function from outside, so the long loops of the readers (the SQL parser's statements, tree-sitter's parse, the
// code walk and model) call checkDeadline(), and so does the engine between rules and in the helpers rules call
// per statement or per finding (tickDeadline()); the file is given up with a message naming it: one
// pathological file must not stall a CI run or leave the language server deaf to the user's edits.
import { nowMs } from './clock';

/** Default budget per file (CLI `--file-time-budget`). */
export const DEFAULT_FILE_BUDGET_MS = 10_000;

/** How the CLI's messages say to raise the budget; an embedder names its own knob instead (withBudgetHint). */
const CLI_BUDGET_HINT = 'raise it with --file-time-budget';

export class DeadlineExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`analysis stopped after ${formatBudget(budgetMs)} (the time budget per file; ${CLI_BUDGET_HINT})`);
  }
}

let deadline = Infinity;
let budget = Infinity;

/**
 * Runs `read` with `budgetMs` to finish, counted from `startedAt` (now, unless the caller just read the clock);
 * nested calls keep the outer deadline when it comes first.
 */
export function withDeadline<T>(budgetMs: number, read: () => T, startedAt = nowMs()): T {
  const savedDeadline = deadline;
  const savedBudget = budget;
  const mine = startedAt + budgetMs;
  if (mine < deadline) {
    deadline = mine;
    budget = budgetMs;
  }
  try {
    return read();
  } finally {
    deadline = savedDeadline;
    budget = savedBudget;
  }
}

/** Throws DeadlineExceeded once the current file's budget is spent. Cheap: call it in loops. */
export function checkDeadline(): void {
  if (deadline !== Infinity && nowMs() > deadline) throw new DeadlineExceeded(budget);
}

let ticks = 0;

/**
 * checkDeadline() on every 32nd call, for helpers called per statement, per table or per finding (a rule's loop
 * goes through them: Workspace's report and lineOf, statementsOf, the schema's lookups, rules/support). Nothing
 * but a comparison when no budget runs. Call it where nothing is half done: it may throw.
 */
export function tickDeadline(): void {
  if (deadline !== Infinity && (++ticks & 31) === 0 && nowMs() > deadline) throw new DeadlineExceeded(budget);
}

/** Why a file's findings are left out when its rules ran past the budget: the budget and the rule running. */
export function rulesStoppedMessage(budgetMs: number, rule: string): string {
  return `rules stopped after ${formatBudget(budgetMs)} in rule ${rule} (the time budget per file; ${CLI_BUDGET_HINT})`;
}

/**
 * A time-budget message (DeadlineExceeded's, rulesStoppedMessage's) with `hint` in place of the CLI's `raise it with
 * --file-time-budget`: the editor's user raises a setting, not a flag. Other messages are returned as they are.
 */
export function withBudgetHint(reason: string, hint: string): string {
  return reason.replace(CLI_BUDGET_HINT, hint);
}

/** True when time is up (for callbacks that must return instead of throwing, such as tree-sitter's). */
export function deadlinePassed(): boolean {
  return deadline !== Infinity && nowMs() > deadline;
}

function formatBudget(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
