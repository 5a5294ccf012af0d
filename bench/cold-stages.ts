// Cold stage times of one `check --format json` of one file, on the main thread: read, parse (Workspace.setFile),
// schema, rules, finding selection and the JSON text, each once in a fresh process (the CLI's situation: nothing
// warmed up). Main-thread CPU time from /proc/self/task/<pid>/schedstat (Linux), which load moves much less than
// wall time; run it several times, alternating with another build's, and compare medians.
// Usage: node bench/bundle.mjs bench/cold-stages.ts bench/.work/cold-stages.cjs && node bench/.work/cold-stages.cjs FILE [CONFIG]
import { readFileSync } from 'node:fs';
import { runConfig, type LintRun } from '../server/src/cli/lint-run';
import { readSourceFile } from '../server/src/cli/files';
import { Workspace } from '../server/src/engine/workspace';
import { selectCiFindings } from '../server/src/ci/check-ci';
import { leftOutFiles, summarize } from '../server/src/cli/check-command';

const cpuMs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const [file, configPath = 'bench/.work/bench.insertlintrc.json'] = process.argv.slice(2);
const ms: Record<string, number> = {};
let last = cpuMs();
const stage = (name: string) => {
  const now = cpuMs();
  ms[name] = Math.round(now - last);
  last = now;
};

const { config } = runConfig({ cwd: process.cwd(), configPath });
const read = readSourceFile(file, config.maxFileBytes);
if ('skip' in read) throw new Error(read.skip);
stage('read');
const workspace = new Workspace(config, []);
workspace.fixes = false; // as `check --format json` (lint-run.ts: only SARIF shows quick fixes)
workspace.addFiles([{ path: file, text: read.text }], () => workspace.setFile(file, read.text));
stage('parse');
void workspace.schema;
stage('schema');
const diagnostics = workspace.allDiagnostics();
stage('rules');
const run: LintRun = { cwd: process.cwd(), config, workspace, files: [file], skipped: [], missing: [], diagnostics, schemaFiles: [], schemaProblems: [] };
const selection = selectCiFindings(run, { minSeverity: 'hint', failOn: 'warning' }, { stdout() {}, stderr() {}, cwd: process.cwd() } as never, 'json');
if ('exit' in selection) throw new Error('no findings selected');
stage('select');
// As check-command.ts formats JSON (the fields of each finding, indented by two).
const findings = selection.findings.filter((d) => !d.suppressed);
const text = JSON.stringify({ summary: summarize(run), leftOut: leftOutFiles(run), diagnostics: findings.map((d) => ({ file: d.displayPath, line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, rule: d.rule, severity: d.severity, message: d.message, ...(d.extentLines ? { extent: d.extentLines } : {}) })) }, null, 2);
stage('json');
process.stdout.write(JSON.stringify({ ...ms, total: Object.values(ms).reduce((a, b) => a + b, 0), findings: findings.length, jsonChars: text.length }) + '\n');
