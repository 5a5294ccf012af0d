// Scripts more than one suite reads.

/** A script run with -td@ whose procedure inserts one row per pass of a WHILE loop into a table with NO CACHE identity. */
export const TD_AT_ROUTINE_SCRIPT = [
  '-- db2 -td@ -f load.db2',
  'CREATE TABLE APP.EVENTS (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(20))@',
  'CREATE PROCEDURE APP.FILL ()',
  'BEGIN',
  '  DECLARE I INT DEFAULT 0; -- a counter',
  '  WHILE I < 100000 DO',
  "    INSERT INTO APP.EVENTS (NOTE) VALUES ('x');",
  '    SET I = I + 1;',
  '  END WHILE;',
  'END@',
  '',
].join('\n');
