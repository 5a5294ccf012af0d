// A small stand-in for the GitHub Actions runner, enough to run a composite action.yml the way a job would:
// inputs with their defaults, `${{ }}` expressions (the subset action.yml uses: contexts, literals, == != && || !,
// success()/always()/failure()), `if:`, per-step GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, step outputs,
// continue-on-error, bash run as `bash --noprofile --norc -eo pipefail`. `uses:` steps are not run (the test
// machine has Node already); an expression outside the subset throws, so the test cannot silently mis-run.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './helpers';

export interface ActionStep {
  name?: string;
  id?: string;
  uses?: string;
  if?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'continue-on-error'?: boolean;
}
export interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepResult {
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  /** How the step counts for the job: a failure under continue-on-error counts as success. */
  conclusion: 'success' | 'failure' | 'skipped';
  stdout: string;
  stderr: string;
  exitCode?: number;
}
export interface JobResult {
  steps: StepResult[];
  failed: boolean;
  outputs: Record<string, string>;
  summary: string;
}

type Value = string | number | boolean | null | Record<string, unknown>;

// ---------------------------------------------------------------- expressions
const TOKEN = /\s*(?:('(?:[^']|'')*')|(==|!=|&&|\|\||!|\(|\)|\.)|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_-]*))/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`runner: cannot read the expression "${text}" at ${at}`);
    tokens.push(m[0].trim());
  }
  return tokens;
}

function truthy(v: Value): boolean {
  return v !== null && v !== false && v !== 0 && v !== '';
}

function loosely(a: Value, b: Value): boolean {
  // GitHub compares strings case-insensitively and coerces a number against a numeric string.
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return a === b;
}

export function evaluate(text: string, context: Record<string, unknown>, status: { failed: boolean }): Value {
  const tokens = tokenize(text);
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const take = (expected?: string): string => {
    const t = tokens[i++];
    if (t === undefined || (expected !== undefined && t !== expected)) throw new Error(`runner: expected ${expected ?? 'more'} in "${text}"`);
    return t;
  };
  const primary = (): Value => {
    const t = take();
    if (t === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (t === '!') return !truthy(primary());
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (peek() === '(') {
      take('(');
      take(')');
      if (t === 'success') return !status.failed;
      if (t === 'failure') return status.failed;
      if (t === 'always') return true;
      throw new Error(`runner: unknown function ${t}() in "${text}"`);
    }
    if (!(t in context)) throw new Error(`runner: unknown context "${t}" in "${text}"`);
    let v = context[t] as unknown;
    while (peek() === '.') {
      take('.');
      const key = take();
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    }
    return v === undefined ? null : (v as Value);
  };
  const comparison = (): Value => {
    let v = primary();
    while (peek() === '==' || peek() === '!=') {
      const op = take();
      const w = primary();
      v = op === '==' ? loosely(v, w) : !loosely(v, w);
    }
    return v;
  };
  const and = (): Value => {
    let v = comparison();
    while (peek() === '&&') {
      take();
      const w = comparison();
      v = truthy(v) ? w : v;
    }
    return v;
  };
  const or = (): Value => {
    let v = and();
    while (peek() === '||') {
      take();
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  };
  const value = or();
  if (i !== tokens.length) throw new Error(`runner: unexpected "${tokens[i]}" in "${text}"`);
  return value;
}

function asText(v: Value): string {
  if (v === null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function interpolate(text: string, context: Record<string, unknown>, status: { failed: boolean } = { failed: false }): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => asText(evaluate(expr, context, status)));
}

/** name=value lines and name<<DELIMITER heredocs, as the runner reads GITHUB_OUTPUT. */
export function readOutputFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(file)) return out;
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body: string[] = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) body.push(lines[i]);
      out[heredoc[1]] = body.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

// ---------------------------------------------------------------- the job
export interface JobSetup {
  action: Action;
  actionPath: string;
  workspace: string;
  runnerTemp: string;
  /** The `with:` of the workflow step that uses the action (already plain strings). */
  with: Record<string, string>;
  event: Record<string, unknown>;
  eventName: string;
  repository: string;
  token: string;
  /** Extra environment (PATH with a stand-in gh, …). */
  env: NodeJS.ProcessEnv;
}

export function runCompositeAction(job: JobSetup): JobResult {
  const { action } = job;
  if (action.runs.using !== 'composite') throw new Error(`runner: only composite actions, not ${action.runs.using}`);
  mkdirSync(job.runnerTemp, { recursive: true });
  const eventPath = join(job.runnerTemp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(job.event));
  const github = { event: job.event, event_name: job.eventName, repository: job.repository, token: job.token, workspace: job.workspace, action_path: job.actionPath };
  const status = { failed: false };
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    inputs[name] = name in job.with ? job.with[name] : interpolate(spec.default ?? '', { github }, status);
    if (spec.required && !inputs[name]) throw new Error(`runner: input ${name} is required`);
  }
  for (const name of Object.keys(job.with)) if (!(name in action.inputs)) throw new Error(`runner: the action has no input "${name}"`);
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const results: StepResult[] = [];
  const summary = join(job.runnerTemp, 'job-summary.md');
  writeFileSync(summary, '');
  action.runs.steps.forEach((step, index) => {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    const context = { github, inputs, steps, env: {}, runner: { temp: job.runnerTemp, os: 'Linux' } };
    const condition = step.if ?? 'success()';
    const wantsStatus = /\b(success|failure|always)\(\)/.test(condition);
    const go = truthy(evaluate(condition.replace(/^\$\{\{([\s\S]*)\}\}$/, '$1'), context, status)) && (wantsStatus || !status.failed);
    if (!go || step.uses) {
      results.push({ name, outcome: 'skipped', conclusion: 'skipped', stdout: '', stderr: '' });
      if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
      return;
    }
    if (step.shell !== 'bash') throw new Error(`runner: step "${name}" needs shell: bash`);
    const outputFile = join(job.runnerTemp, `output-${index}`);
    const summaryFile = join(job.runnerTemp, `summary-${index}`);
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const script = join(job.runnerTemp, `step-${index}.sh`);
    writeFileSync(script, interpolate(step.run ?? '', context, status));
    const stepEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = interpolate(String(v), context, status);
    const r = run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: job.workspace,
      env: {
        ...job.env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_ACTION_PATH: job.actionPath,
        GITHUB_WORKSPACE: job.workspace,
        GITHUB_EVENT_NAME: job.eventName,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: job.repository,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        RUNNER_TEMP: job.runnerTemp,
        ...stepEnv,
      },
    });
    const outcome = r.code === 0 ? 'success' : 'failure';
    const conclusion = outcome === 'failure' && step['continue-on-error'] ? 'success' : outcome;
    if (conclusion === 'failure') status.failed = true;
    appendFileSync(summary, readFileSync(summaryFile, 'utf8'));
    if (step.id) steps[step.id] = { outputs: readOutputFile(outputFile), outcome, conclusion };
    results.push({ name, outcome, conclusion, stdout: r.stdout, stderr: r.stderr, exitCode: r.code });
  });
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = interpolate(spec.value, { github, inputs, steps }, status);
  return { steps: results, failed: status.failed, outputs, summary: readFileSync(summary, 'utf8') };
}
