// An upgrade step as Flowable writes them, shared by the engine and language-server tests of the merged
// move-after-load finding (engine/merge.ts mergeMovesAfterLoad). Lines: 1-2 tables, 3-6 indexes (with the primary
// key, 5: over 3), 7-8 foreign keys, 10 the INSERT … SELECT that fills T.
export const UPGRADE_STEP = [
  'CREATE TABLE P (ID INT NOT NULL PRIMARY KEY);',
  'CREATE TABLE T (ID INT NOT NULL PRIMARY KEY, A INT, B INT, C INT, D INT, P_ID INT);',
  'CREATE INDEX T_A ON T (A);',
  'CREATE INDEX T_B ON T (B);',
  'CREATE INDEX T_C ON T (C);',
  'CREATE INDEX T_D ON T (D);',
  'ALTER TABLE T ADD CONSTRAINT T_P FOREIGN KEY (P_ID) REFERENCES P (ID);',
  'ALTER TABLE T ADD CONSTRAINT T_P2 FOREIGN KEY (A) REFERENCES P (ID);',
  '',
  'INSERT INTO T (ID, A, B, C, D, P_ID) SELECT ID, A, B, C, D, P_ID FROM OLD_T;',
  '',
].join('\n');

// Two tables given the same advice (indexes and a foreign key created before the INSERT … SELECT that fills each):
// one finding (mergeTables) whose parts start on lines 6 and 10 (index-count) and 12 and 14 (enforced-foreign-key);
// the loads are lines 16 (T2) and 17 (T1).
export const TWO_TABLES_STEP = [
  'CREATE TABLE P (ID INT NOT NULL PRIMARY KEY);',
  'CREATE TABLE T1 (ID INT NOT NULL PRIMARY KEY, A INT, B INT, C INT, D INT, P_ID INT);',
  'CREATE TABLE T2 (ID INT NOT NULL PRIMARY KEY, A INT, B INT, C INT, D INT, P_ID INT);',
  ...['T1', 'T2'].flatMap((t) => ['A', 'B', 'C', 'D'].map((c) => `CREATE INDEX ${t}_${c} ON ${t} (${c});`)),
  'ALTER TABLE T1 ADD CONSTRAINT T1_P FOREIGN KEY (P_ID) REFERENCES P (ID);',
  '',
  'ALTER TABLE T2 ADD CONSTRAINT T2_P FOREIGN KEY (P_ID) REFERENCES P (ID);',
  '',
  'INSERT INTO T2 (ID, A, B, C, D, P_ID) SELECT ID, A, B, C, D, P_ID FROM OLD_T2;',
  'INSERT INTO T1 (ID, A, B, C, D, P_ID) SELECT ID, A, B, C, D, P_ID FROM OLD_T1;',
  '',
].join('\n');
