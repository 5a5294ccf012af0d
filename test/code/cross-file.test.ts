// A loop in one file that calls a method of another file's class, on a variable declared with that class's type or
// an interface it implements (DayTrader's populate loop calling ts.createQuote(…), TradeDirect.createQuote
// preparing, inserting one row and committing): the engine lends the loop to the method (engine/cross-file.ts).
import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

// The caller touches JDBC itself, as DayTrader's TradeDirectDBUtils does: a file without any Db2 access is left
// out before it is parsed, and its loops are not seen (README of server/src/code).
const CALLER = `import java.sql.SQLException;
public class Populate {
  @Inject TradeServices ts;
  private List<String> names;
  public void buildDB(int max) throws Exception {
    for (int i = 0; i < max; i++) {
      ts.createQuote("s:" + i, "S" + i);
      names.add("x");
    }
  }
}
`;
const CALLEE = `public class TradeDirect implements TradeServices {
  private static final String SQL = "insert into quoteejb (symbol, companyName) VALUES (?, ?)";
  public void createQuote(String symbol, String name) throws Exception {
    Connection conn = getConn();
    PreparedStatement stmt = conn.prepareStatement(SQL);
    stmt.setString(1, symbol);
    stmt.setString(2, name);
    stmt.executeUpdate();
    conn.commit();
  }
  public void add(String x) throws Exception {
    getConn().prepareStatement("insert into other (a) values (?)").executeUpdate();
  }
}
`;

describe('code: loops of another file lent to the methods they call', () => {
  it("Java: a method called in another file's loop on a variable of an interface its class implements", async () => {
    const { findings } = await lintCode({ 'Populate.java': CALLER, 'TradeDirect.java': CALLEE });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(CALLEE, 'conn.prepareStatement')}`,
      `single-row-insert@${posOf(CALLEE, 'stmt.executeUpdate')}`,
      `commit-per-row@${posOf(CALLEE, 'conn.commit')}`,
    ]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!;
    assert.match(single.message, /^One INSERT INTO QUOTEEJB call per row in the for loop at Populate\.java:6 \(through createQuote\(\)\)\./);
  });

  it('not on a method name alone: names.add(…) on a List lends nothing to TradeDirect.add; nor without the caller', async () => {
    const alone = await lintCode({ 'TradeDirect.java': CALLEE });
    assert.deepEqual(brief(alone.findings, INSERT_RULES), []);
    const untyped = await lintCode({ 'Populate.java': CALLER.replace('@Inject TradeServices ts;', '@Inject Object ts;'), 'TradeDirect.java': CALLEE });
    assert.deepEqual(brief(untyped.findings, INSERT_RULES), []);
  });
});
