// The language server on a z/OS repository: findings in COBOL programs, DDL and JCL as the editor shows them
// (issue 18: diagnostics in files other extensions colour), copybooks resolved from the workspace index.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSession, REPO_ROOT, uriOf, type LspDiagnostic } from './harness';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'code', 'zos-batch');

const rules = (diags: LspDiagnostic[] | undefined) => (diags ?? []).map((d) => `${d.code}@${d.range.start.line + 1}`).sort();

describe('language server on a z/OS batch repository', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-zos-'));
    cpSync(FIXTURE, dir, { recursive: true });
    lsp = await LspSession.start(dir);
  });

  afterEach(async () => {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes the COBOL and DDL findings of the indexed workspace, and follows an edit of the program', async () => {
    const program = uriOf(join(dir, 'DIVPOST.cbl'));
    const ddl = uriOf(join(dir, 'DIVDDL.ddl'));
    await lsp.waitFor('the COBOL findings', () => rules(lsp.diagnostics.get(program)).includes('commit-per-row@51'));
    assert.deepEqual(rules(lsp.diagnostics.get(program)), ['commit-per-row@51', 'single-row-insert@44']);
    await lsp.waitFor('the DDL findings', () => rules(lsp.diagnostics.get(ddl)).includes('zos-cluster-without-append@15'));
    // An editor without a COBOL extension opens the program as plain text; the commit goes, and its finding too.
    const text = readFileSync(join(dir, 'DIVPOST.cbl'), 'utf8');
    lsp.open(program, text.replace('005100 ', '005100*'), 'plaintext');
    await lsp.waitFor('the commit-per-row finding to go', () => !rules(lsp.diagnostics.get(program)).includes('commit-per-row@51') && rules(lsp.diagnostics.get(program)).includes('batch-without-commit@44'));
  });
});
