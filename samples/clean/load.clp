-- Nightly load, fixed: run with `db2 -tvf load.clp`.
CONNECT TO SALESDB;

-- One commit per unit of work, not per statement (seed 000, tests 61-78).
UPDATE COMMAND OPTIONS USING C OFF;

-- A log buffer that does not fill between commits (tests 104-105) and eager page cleaning (test 8).
UPDATE DB CFG FOR SALESDB USING LOGBUFSZ 256 CHNGPGS_THRESH 5;

SET SCHEMA SALES_FIXED;

-- Several rows per INSERT statement instead of one statement per row.
INSERT INTO REGION (REGION, NAME) VALUES ('UK', 'United Kingdom'), ('US', 'United States'), ('NL', 'Netherlands');
COMMIT;

-- LOAD from a cursor instead of INSERT … SELECT (tests 6 and 9).
DECLARE WEB_ORDERS CURSOR FOR SELECT CUST_ID, ORDER_DATE, 'N', NOTES FROM STAGE.WEB_ORDERS;
LOAD FROM WEB_ORDERS OF CURSOR INSERT INTO ORDERS (CUST_ID, ORDER_DATE, STATUS, NOTES);

-- Keys and indexes are built once the rows are in (tests 16, 17, 36, 37).
ALTER TABLE REGION ADD CONSTRAINT REGION_PK PRIMARY KEY (REGION);
ALTER TABLE ORDERS ADD CONSTRAINT ORDERS_PK PRIMARY KEY (ORDER_ID);
CREATE INDEX ORDERS_DATE_IX ON ORDERS (ORDER_DATE);
COMMIT;

CONNECT RESET;
