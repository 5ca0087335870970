package dev.redrive.store;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Rows bound as one text array per column and read back in SQL with {@code unnest(...) AS v(columns)}: a multi-row
 * statement with a fixed number of parameters. The columns are one enum, so the statement's column list and the arrays
 * bound to it come from the same declaration, and each value is set by its column's name, never by a position.
 *
 * @param <C> the columns, in the order the statement reads them
 */
public final class UnnestedRows<C extends Enum<C> & UnnestedRows.Column> {
    /** A column of the unnested rows; its SQL name is the constant's name in lower case. */
    public interface Column {
        /** The PostgreSQL type the text array is cast to, e.g. {@code bigint}; {@code text} needs no cast. */
        String sqlType();
    }

    private final C[] columns;
    private final String[][] values;
    private int row = -1;

    public UnnestedRows(Class<C> columns, int rows) {
        this.columns = columns.getEnumConstants();
        this.values = new String[this.columns.length][rows];
    }

    /** {@code unnest(?::text[], ?::text[]::bigint[], ...) AS v(operation_id, fencing_token, ...)} for these columns. */
    public static <C extends Enum<C> & Column> String unnest(Class<C> columns) {
        C[] all = columns.getEnumConstants();
        String arrays = Arrays.stream(all)
                .map(column -> "text".equals(column.sqlType()) ? "?::text[]" : "?::text[]::" + column.sqlType() + "[]")
                .collect(Collectors.joining(", "));
        String names = Arrays.stream(all).map(UnnestedRows::sqlName).collect(Collectors.joining(", "));
        return "unnest(" + arrays + ") AS v(" + names + ")";
    }

    private static String sqlName(Enum<?> column) {
        return column.name().toLowerCase(Locale.ROOT);
    }

    /** Moves to the next row; every column of it is null until set. */
    public UnnestedRows<C> nextRow() {
        if (++row == values[0].length) {
            throw new IllegalStateException("more rows than the " + values[0].length + " announced");
        }
        return this;
    }

    /** Sets a column of the current row to the value's text (PostgreSQL casts it back), or to null. */
    public UnnestedRows<C> set(C column, Object value) {
        values[column.ordinal()][row] = value == null ? null : value.toString();
        return this;
    }

    /** The arrays to bind, in the order {@link #unnest} lists the columns. */
    public Object[] parameters() {
        return values;
    }
}
