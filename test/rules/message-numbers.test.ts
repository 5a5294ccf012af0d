// Counts in messages are written by countText, never by toLocaleString: the first toLocaleString of a process
// loads ICU's locale data (~20 ms), which a run then pays inside the first file that reports such a finding.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Bundled tests run from out/test/rules/.
const RULES = join(__dirname, '..', '..', '..', 'rules');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('rule messages', () => {
  it('write numbers with countText, not toLocaleString', () => {
    const found = sources(RULES).filter((f) => /\.toLocaleString\(/.test(readFileSync(f, 'utf8')));
    assert.ok(sources(RULES).length > 20, 'the rules folder was found');
    assert.deepEqual(found, []);
  });

  it("cite their sources by public name (Db2 INSERT tips, the z/OS SSD study), never the project's seed numbers", () => {
    // What users read: rule messages and evidence, and the rule docs beside them. "seed 000" names a file of ours.
    const docs = readdirSync(RULES).filter((f) => f.endsWith('.md')).map((f) => join(RULES, f));
    const uncited = [...sources(RULES), ...docs].flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && (/\bseed 00\d/i.test(line) || /'00\d[ ']/.test(line)))
        .map((line) => `${f}: ${line.trim().slice(0, 80)}`),
    );
    assert.deepEqual(uncited, []);
  });
});
