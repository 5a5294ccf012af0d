// Validates SARIF output against the official 2.1.0 schema (test/fixtures/sarif).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';

// The fixture is the unmodified SARIF 2.1.0 schema (draft-04); Ajv 8 reads it once it is declared draft-07
// with `$id` (see test/fixtures/sarif/README.md).
export function sarifValidator() {
  const schemaPath = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  schema.$schema = 'http://json-schema.org/draft-07/schema#';
  schema.$id = schema.id;
  delete schema.id;
  // unicodeRegExp off: the schema's `language` pattern has a stray `]` that only non-unicode regexps accept.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  ajv.addFormat('uri', (s: string) => {
    try {
      new URL(s);
      return true;
    } catch {
      return false;
    }
  });
  ajv.addFormat('uri-reference', (s: string) => !/\s/.test(s));
  ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s));
  return ajv.compile(schema);
}
