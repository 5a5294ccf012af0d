// Paths of the schema fixtures (test/fixtures/schema): a db2look file of the DBAs' SALESDB and an application
// repository without DDL (Java, Python and Node loaders) whose .insertlintrc.json names it.
import { join } from 'node:path';

export const SCHEMA_FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'schema');
export const DB2LOOK = join(SCHEMA_FIXTURES, 'dba', 'salesdb.db2look');
export const APP = join(SCHEMA_FIXTURES, 'app');
