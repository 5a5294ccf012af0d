"""Loads customers from a CSV file with ibm_db, one row at a time (the slow way)."""
import csv
import sys

import ibm_db


def main(dsn, path):
    conn = ibm_db.connect(dsn, "", "")
    with open(path, newline="") as f:
        for cust_id, name, region in csv.reader(f):
            sql = f"""INSERT INTO SALES.CUSTOMER (CUST_ID, NAME, REGION)
                      VALUES ({cust_id}, '{name}', '{region}')"""
            ibm_db.exec_immediate(conn, sql)
            ibm_db.commit(conn)
    ibm_db.close(conn)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
