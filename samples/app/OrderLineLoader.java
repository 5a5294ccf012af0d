package sample;

import java.io.BufferedReader;
import java.io.FileReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * Loads order lines from a CSV file, the way many loaders start out: it works, and it is slow.
 * Run `insertlint check samples` to see why.
 */
public class OrderLineLoader {
    public static void main(String[] args) throws Exception {
        Connection conn = DriverManager.getConnection("jdbc:db2://localhost:50000/SALESDB", args[0], args[1]);
        Statement stmt = conn.createStatement();
        try (BufferedReader in = new BufferedReader(new FileReader(args[2]))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(",");
                // A new SQL text for every row: compiled every time, and open to SQL injection.
                String sql = "INSERT INTO SALES.ORDER_LINE (ORDER_ID, LINE_NO, ITEM, QTY, PRICE) "
                    + "VALUES (" + f[0] + ", " + f[1] + ", '" + f[2] + "', "
                    + f[3] + ", " + f[4] + ")";
                stmt.executeUpdate(sql);
            }
        }
        stmt.close();
        conn.close();
    }

    /** Orders go through a prepared statement, but it is prepared again for every row. */
    static void loadOrders(Connection conn, java.util.List<String[]> orders) throws Exception {
        conn.setAutoCommit(false);
        for (String[] o : orders) {
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO SALES.ORDERS (CUST_ID, ORDER_DATE, STATUS) VALUES (?, CURRENT DATE, 'N')")) {
                ps.setInt(1, Integer.parseInt(o[0]));
                ps.executeUpdate();
            }
            conn.commit();
        }
    }
}
