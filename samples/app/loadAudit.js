// Writes the audit trail of a batch of orders with node ibm_db, one statement and one commit per row.
const ibmdb = require('ibm_db');

async function loadAudit(cn, orders) {
  const conn = await ibmdb.open(cn);
  for (const order of orders) {
    const stmt = await conn.prepare('INSERT INTO SALES.ORDER_AUDIT (AUDIT_ID, ORDER_ID, LOGGED_AT) VALUES (?, ?, CURRENT TIMESTAMP)');
    await stmt.execute([order.auditId, order.id]);
  }
  for (const order of orders) {
    await conn.query(`INSERT INTO SALES.ORDER_AUDIT (AUDIT_ID, ORDER_ID, LOGGED_AT)
                      VALUES (${order.auditId + 1}, ${order.id}, CURRENT TIMESTAMP)`);
  }
  await conn.close();
}

module.exports = { loadAudit };
