// JSON the user writes: a syntax error is said at a line and column, with what is wrong there; the scan that
// finds it agrees with JSON.parse on what is valid.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstJsonError, JsonSyntaxError, parseJsonText } from '../../server/src/engine/json-text';
import { disableRuleInConfigFile } from '../../server/src/lsp/config-file';

function syntaxError(text: string): string {
  try {
    parseJsonText(text);
  } catch (error) {
    assert.ok(error instanceof JsonSyntaxError);
    return error.message;
  }
  assert.fail(`parsed: ${text}`);
}

describe('JSON syntax errors at a line and column', () => {
  it('says where and what for the mistakes people make in a configuration file', () => {
    const cases: [string, string][] = [
      ['{\n  "rules": {\n    "identity-cache": "error"\n    "lob-column": "off"\n  }\n}\n', `at line 4, column 5: expected ',' or '}' after a property value, not '"' (is a comma missing at the end of line 3?)`],
      ['{\n  "rules": {},\n}\n', "at line 2, column 14: a comma before '}' (JSON allows no trailing comma)"],
      ['{\n  // the rules\n  "rules": {}\n}\n', 'at line 2, column 3: comments are not allowed in JSON'],
      ["{ 'rules': {} }", 'at line 1, column 3: property names take double quotes in JSON, not single quotes'],
      ['{ rules: {} }', 'at line 1, column 3: property names take double quotes in JSON'],
      ['{ "extends": \'insertlint:all\' }', 'at line 1, column 14: strings take double quotes in JSON, not single quotes'],
      ['{ "rules": {}', "at line 1, column 14: the text ends before its last object is closed with '}'"],
      ['{ "testFiles": ["a", "b"', "at line 1, column 25: the text ends before its last array is closed with ']'"],
      ['{ "bulkRowThreshold": 01 }', 'at line 1, column 23: not a JSON number (01…)'],
      ['{ "rules": { "identity-cache": "error" } } }', "at line 1, column 44: unexpected '}' after the JSON value (one value per file)"],
      ['{ "a": "x\ny" }', 'at line 1, column 10: a line break inside a string (a string that is not closed, or write it as an escape such as \\n)'],
      ['{ "a": "C:\\dir" }', 'at line 1, column 11: \\d is not a JSON escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'],
      ['{ "a": yes }', "at line 1, column 8: unexpected word 'yes' where a value should be (true, false, null, a number, a string in double quotes, an object or an array)"],
      ['{ "a" 1 }', "at line 1, column 7: expected ':' after the property name, not '1'"],
      ['[1 2]', "at line 1, column 4: expected ',' or ']' after an array element, not '2'"],
      ['', 'at line 1, column 1: the text ends before any JSON value'],
      ['\r\n\r\n  {"a": }', "at line 3, column 9: unexpected '}' where a value should be"],
    ];
    for (const [text, message] of cases) assert.equal(syntaxError(text), message, text);
  });

  it('"Disable rule in this workspace" names the place of the error in a broken .insertlintrc.json and leaves it alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-json-'));
    try {
      const path = join(dir, '.insertlintrc.json');
      writeFileSync(path, '{\n  "rules": { "lob-column": "off", }\n}\n');
      assert.deepEqual(disableRuleInConfigFile(path, 'identity-cache'), { error: `${path} is not valid JSON at line 2, column 33: a comma before '}' (JSON allows no trailing comma); fix it first` });
      assert.equal(readFileSync(path, 'utf8'), '{\n  "rules": { "lob-column": "off", }\n}\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a file that starts with a byte-order mark', () => {
    assert.deepEqual(parseJsonText('\ufeff{"rules": {}}'), { rules: {} });
  });

  it('finds an error exactly when JSON.parse does', () => {
    const valid = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    const pieces = fc.constantFrom('{', '}', '[', ']', '"', '"a"', ':', ',', ' ', '\n', '0', '1', '-', '.', 'e', '+', 'true', 'fals', 'null', '\\', '\\u00e9', '/', "'", 'x', '\t', '\u0001', '1.5e3', '"\\n"');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        assert.equal(firstJsonError(text) === undefined, valid(text), JSON.stringify(text));
      }),
      { numRuns: 20000 },
    );
    // And on mutations of real JSON: a character dropped or doubled.
    const json = fc.json({ maxDepth: 3 });
    fc.assert(
      fc.property(json, fc.nat(), fc.boolean(), (text, at, drop) => {
        const i = text.length ? at % text.length : 0;
        const mutated = drop ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + text[i] + text.slice(i);
        assert.equal(firstJsonError(mutated) === undefined, valid(mutated), JSON.stringify(mutated));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes a deeply nested text without running out of stack', () => {
    assert.equal(firstJsonError('['.repeat(200000) + ']'.repeat(200000)), undefined);
    assert.match(syntaxError('['.repeat(200000) + ']'.repeat(199999)), /the text ends before its last array is closed/);
  });
});
