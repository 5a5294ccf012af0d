// Generates Db2 insert workloads for the benchmarks: a deterministic mix of DDL, literal and parameterised
// single-row inserts, multi-row VALUES inserts (one row per line), INSERT … SELECT, COMMITs and comments.
// The same seed and line count always give the same bytes, so runs on different days compare.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Small deterministic PRNG (mulberry32), so workloads do not depend on Math.random. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TABLES = ['ORDERS', 'ORDER_LINES', 'CUSTOMERS', 'PAYMENTS', 'EVENTS', 'AUDIT_LOG'];
const WORDS = ['alpha', 'bravo', 'charlie', "o''brien", 'delta', 'echo -- not a comment', 'fox/*x*/trot', 'golf;hotel'];

/** DDL limited to what sqlfluff 4.5's db2 dialect parses (no IDENTITY options, CLOB options, IN/ORGANIZE BY, SEQUENCE). */
function plainDdl(table, n) {
  return [
    `-- table ${n}: ${table}`,
    `CREATE TABLE APP.${table}_${n} (`,
    `  ID BIGINT NOT NULL,`,
    `  CUSTOMER_ID INTEGER NOT NULL,`,
    `  AMOUNT DECIMAL(12, 2) NOT NULL DEFAULT 0,`,
    `  NOTE VARCHAR(200),`,
    `  PAYLOAD CLOB(1M),`,
    `  CREATED TIMESTAMP NOT NULL,`,
    `  PRIMARY KEY (ID),`,
    `  CONSTRAINT FK_${table}_${n} FOREIGN KEY (CUSTOMER_ID) REFERENCES APP.CUSTOMERS (ID) ON DELETE CASCADE`,
    `);`,
    `CREATE INDEX APP.IX_${table}_${n}_CUST ON APP.${table}_${n} (CUSTOMER_ID) CLUSTER PCTFREE 10;`,
  ];
}

function fullDdl(table, n) {
  return [
    `-- table ${n}: ${table}`,
    `CREATE TABLE APP.${table}_${n} (`,
    `  ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 INCREMENT BY 1 NO CACHE),`,
    `  CUSTOMER_ID INTEGER NOT NULL,`,
    `  AMOUNT DECIMAL(12, 2) NOT NULL DEFAULT 0,`,
    `  NOTE VARCHAR(200),`,
    `  PAYLOAD CLOB(1M) LOGGED NOT COMPACT,`,
    `  CREATED TIMESTAMP NOT NULL WITH DEFAULT CURRENT TIMESTAMP,`,
    `  PRIMARY KEY (ID),`,
    `  CONSTRAINT FK_${table}_${n} FOREIGN KEY (CUSTOMER_ID) REFERENCES APP.CUSTOMERS (ID) ON DELETE CASCADE`,
    `) IN USERSPACE1 INDEX IN USERSPACE1 ORGANIZE BY ROW;`,
    `CREATE INDEX APP.IX_${table}_${n}_CUST ON APP.${table}_${n} (CUSTOMER_ID) CLUSTER PCTFREE 10;`,
    `CREATE SEQUENCE APP.SEQ_${table}_${n} AS BIGINT START WITH 1 INCREMENT BY 1 NO CACHE;`,
  ];
}

function literalRow(rand, id) {
  const word = WORDS[Math.floor(rand() * WORDS.length)];
  return `(${id}, ${Math.floor(rand() * 100000)}, ${(rand() * 10000).toFixed(2)}, '${word} ${id}', CURRENT TIMESTAMP)`;
}

/**
 * Returns a workload of at least `lines` lines (it stops at the first statement boundary past it).
 * Every 400th statement is a new table's DDL, so the schema grows with the file.
 * `peerParsable`: only constructs sqlfluff 4.5 (db2) parses: literal inserts, INSERT … SELECT, COMMIT and
 * plain DDL. sqlfluff stops at its first unparsable statement and reports the rest of the file as one
 * unparsable section, so the full mix would time sqlfluff giving up, not linting.
 */
export function generateWorkload(lines, { seed = 7, peerParsable = false } = {}) {
  const rand = prng(seed);
  const ddl = peerParsable ? plainDdl : fullDdl;
  const out = ['-- Generated Db2 insert workload (bench/generate.mjs); not a real application.', "SET SCHEMA APP;"];
  let tableNo = 0;
  let current = 'ORDERS_0';
  out.push(...ddl('ORDERS', 0));
  let id = 1;
  let statements = 0;
  while (out.length < lines) {
    statements++;
    if (statements % 400 === 0) {
      tableNo++;
      const base = TABLES[tableNo % TABLES.length];
      out.push(...ddl(base, tableNo));
      current = `${base}_${tableNo}`;
      continue;
    }
    const pick = rand();
    const cols = 'CUSTOMER_ID, AMOUNT, NOTE, CREATED';
    if (peerParsable && pick >= 0.35 && pick < 0.6) {
      // parameter markers and host variables are what sqlfluff cannot parse: literal rows instead
      const row = literalRow(rand, id++).replace(/^\(\d+, /, '(');
      out.push(`INSERT INTO APP.${current} (${cols}) VALUES ${row};`);
    } else if (peerParsable && pick >= 0.88 && pick < 0.93) {
      out.push('COMMIT;');
    } else if (pick < 0.35) {
      // literal single-row insert
      const row = literalRow(rand, id++).replace(/^\(\d+, /, '(');
      out.push(`INSERT INTO APP.${current} (${cols}) VALUES ${row};`);
    } else if (pick < 0.6) {
      out.push(`INSERT INTO APP.${current} (${cols}) VALUES (?, ?, ?, CURRENT TIMESTAMP);`);
    } else if (pick < 0.8) {
      // multi-row insert, one row per line
      const rows = 5 + Math.floor(rand() * 40);
      out.push(`INSERT INTO APP.${current} (${cols})`);
      out.push('VALUES');
      for (let r = 0; r < rows; r++) {
        const row = literalRow(rand, id++).replace(/^\(\d+, /, '(');
        out.push(`  ${row}${r === rows - 1 ? ';' : ','}`);
      }
    } else if (pick < 0.88) {
      out.push(`INSERT INTO APP.${current} (${cols})`);
      out.push(`  SELECT C.ID, O.AMOUNT * 1.1, 'copy of ' || O.NOTE, CURRENT TIMESTAMP`);
      out.push(`  FROM APP.ORDERS_0 O JOIN APP.CUSTOMERS C ON C.ID = O.CUSTOMER_ID`);
      out.push(`  WHERE O.AMOUNT > ${Math.floor(rand() * 500)} AND O.NOTE LIKE 'a%'`);
      out.push(`  FETCH FIRST ${1 + Math.floor(rand() * 1000)} ROWS ONLY;`);
    } else if (pick < 0.93) {
      out.push(`INSERT INTO APP.${current} (${cols}) VALUES (:custId, :amount:amountInd, :note, CURRENT TIMESTAMP);`);
    } else if (pick < 0.97) {
      out.push('COMMIT;');
    } else {
      out.push(`/* batch ${statements}: nightly load */`);
    }
  }
  return out.join('\n') + '\n';
}

// node bench/generate.mjs LINES OUT.sql [--peer-parsable]
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [lines, file, flag] = process.argv.slice(2);
  if (!lines || !file) {
    console.error('usage: node bench/generate.mjs LINES OUT.sql [--peer-parsable]');
    process.exit(2);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, generateWorkload(Number(lines), { peerParsable: flag === '--peer-parsable' }));
}
