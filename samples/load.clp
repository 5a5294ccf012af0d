-- Nightly load of the sample workload (run with: db2 -tvf load.clp).
-- The CLP commits after every statement unless told otherwise (autocommit is on by default).
CONNECT TO SALESDB;

UPDATE DB CFG FOR SALESDB USING LOGBUFSZ 8 CHNGPGS_THRESH 60 MINCOMMIT 3;

SET SCHEMA SALES;

-- Today's orders come from the staging table filled by the web shop.
ALTER TABLE ORDERS ACTIVATE NOT LOGGED INITIALLY;
INSERT INTO ORDERS (CUST_ID, ORDER_DATE, STATUS, NOTES)
  SELECT CUST_ID, ORDER_DATE, 'N', NOTES FROM STAGE.WEB_ORDERS;

INSERT INTO ORDER_LINE (ORDER_ID, LINE_NO, ITEM, QTY, PRICE)
  SELECT O.ORDER_ID, W.LINE_NO, W.ITEM, W.QTY, W.PRICE
  FROM STAGE.WEB_ORDER_LINES W JOIN ORDERS O ON O.CUST_ID = W.CUST_ID;

IMPORT FROM '/data/returns.del' OF DEL INSERT INTO SALES.ORDER_LINE;

-- Customers who registered in the shop come from its staging table (new_customers.clp adds the rest).
INSERT INTO CUSTOMER SELECT CUST_ID, NAME, COUNTRY FROM STAGE.WEB_CUSTOMERS;

COMMIT;
CONNECT RESET;
