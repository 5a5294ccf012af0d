-- Sample workload for InsertLint: the nightly archive job, an SQL PL procedure run with `db2 -td@ -vf archive.db2`
-- (InsertLint reads the @ terminator from the END@ lines). It copies a day's order lines one row at a time,
-- commits every row and logs the run with a statement built by concatenation; `insertlint check samples` explains.
SET SCHEMA SALES@

CREATE TABLE ORDER_LINE_HIST (
  ORDER_ID    BIGINT NOT NULL,
  LINE_NO     SMALLINT NOT NULL,
  ITEM        VARCHAR(40) NOT NULL,
  QTY         INTEGER NOT NULL,
  PRICE       DECIMAL(11, 2) NOT NULL,
  ARCHIVED_AT TIMESTAMP NOT NULL
) IN ORDERS_TS@

CREATE TABLE ARCHIVE_RUN (
  RUN_DAY DATE NOT NULL,
  LINES   INTEGER NOT NULL
)@

CREATE OR REPLACE PROCEDURE ARCHIVE_ORDER_LINES (IN P_DAY DATE)
LANGUAGE SQL
BEGIN
  DECLARE V_LINES INTEGER DEFAULT 0;
  FOR L AS SELECT OL.ORDER_ID, OL.LINE_NO, OL.ITEM, OL.QTY, OL.PRICE
           FROM ORDER_LINE OL JOIN ORDERS O ON O.ORDER_ID = OL.ORDER_ID
           WHERE O.ORDER_DATE = P_DAY
  DO
    INSERT INTO ORDER_LINE_HIST VALUES (L.ORDER_ID, L.LINE_NO, L.ITEM, L.QTY, L.PRICE, CURRENT TIMESTAMP);
    SET V_LINES = V_LINES + 1;
    COMMIT;
  END FOR;
  EXECUTE IMMEDIATE 'INSERT INTO ARCHIVE_RUN VALUES (''' || CHAR(P_DAY) || ''', ' || CHAR(V_LINES) || ')';
END@
