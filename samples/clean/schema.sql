-- The sample schema with the insert problems fixed: `insertlint check samples/clean` reports nothing.
-- Its objects live in schema SALES_FIXED so that linting all of samples/ keeps the two apart.
-- Compare with ../schema.sql; each difference is explained in a comment.

-- Automatic storage (not SMS) and 32-page extents (seed 000, tests 81-85).
CREATE TABLESPACE SALES_FIXED_DATA MANAGED BY AUTOMATIC STORAGE EXTENTSIZE 32;

SET SCHEMA SALES_FIXED;

-- A large identity cache (test 46), no LOB column (test 91), APPEND ON with no free space
-- reserved on data pages, table-level locking for the nightly load (test 101).
CREATE TABLE ORDERS (
  ORDER_ID   BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 INCREMENT BY 1 CACHE 1000),
  CUST_ID    INTEGER NOT NULL,
  ORDER_DATE DATE NOT NULL,
  STATUS     CHAR(1) NOT NULL,
  NOTES      VARCHAR(2000)
) IN SALES_FIXED_DATA APPEND ON;

ALTER TABLE ORDERS LOCKSIZE TABLE PCTFREE 0;

CREATE TABLE REGION (
  REGION CHAR(2) NOT NULL,
  NAME   VARCHAR(40) NOT NULL
) IN SALES_FIXED_DATA APPEND ON;

ALTER TABLE REGION LOCKSIZE TABLE;
