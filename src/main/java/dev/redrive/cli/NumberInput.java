package dev.redrive.cli;

import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Numbers as an operator types them: a line that says what was expected ("expected a whole number, got 'abc'")
 * instead of picocli's "'abc' is not an int", which speaks of Java's types.
 */
final class NumberInput {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d{1,3})?");

    private NumberInput() {
    }

    /** Registers the converters on {@code commandLine} and, as picocli does, on every command below it. */
    static void register(CommandLine commandLine) {
        ITypeConverter<Integer> whole = text -> parse(text, "a whole number", Integer::valueOf);
        ITypeConverter<Long> large = text -> parse(text, "a whole number", Long::valueOf);
        ITypeConverter<Double> decimal = text -> parse(text, "a number such as 2 or 0.5", NumberInput::decimal);
        commandLine.registerConverter(Integer.class, whole).registerConverter(int.class, whole)
                .registerConverter(Long.class, large).registerConverter(long.class, large)
                .registerConverter(Double.class, decimal).registerConverter(double.class, decimal);
    }

    /** Digits as people write them: no NaN, Infinity, hexadecimal or Java's "2d". */
    private static Double decimal(String text) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new NumberFormatException(text);
        }
        return Double.valueOf(text);
    }

    private static <T> T parse(String text, String expected, Function<String, T> parser) {
        try {
            return parser.apply(text.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expected " + expected + ", got '" + text + "'");
        }
    }
}
