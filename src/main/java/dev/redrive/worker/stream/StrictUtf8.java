package dev.redrive.worker.stream;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a stream entry's field values, which Redis keeps as bytes. Decoding them leniently would turn invalid UTF-8
 * into U+FFFD and run an operation on a payload nobody sent; this decoder names every field that is not UTF-8.
 */
final class StrictUtf8 {
    private static final char REPLACEMENT = '\uFFFD';

    private StrictUtf8() {
    }

    record Decoded(Map<String, String> fields, List<String> undecodable) {
    }

    static Decoded decode(Map<String, byte[]> body) {
        Map<String, String> fields = new LinkedHashMap<>();
        List<String> undecodable = new ArrayList<>();
        if (body == null) {
            return new Decoded(fields, undecodable);
        }
        for (Map.Entry<String, byte[]> field : body.entrySet()) {
            byte[] bytes = field.getValue() == null ? new byte[0] : field.getValue();
            // The String constructor (the JDK's fast path) replaces every byte that is not UTF-8 with U+FFFD: text
            // without one was UTF-8. Only text holding one, sent or substituted, goes through the strict decoder.
            String lenient = new String(bytes, StandardCharsets.UTF_8);
            if (lenient.indexOf(REPLACEMENT) < 0) {
                fields.put(field.getKey(), lenient);
                continue;
            }
            ByteBuffer input = ByteBuffer.wrap(bytes);
            try {
                CharBuffer text = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(input);
                fields.put(field.getKey(), text.toString());
            } catch (CharacterCodingException e) {
                int offset = e instanceof MalformedInputException ? input.position() : 0;
                undecodable.add(field.getKey() + " (byte " + offset + ")");
                fields.put(field.getKey(), lenient);
            }
        }
        return new Decoded(fields, undecodable);
    }
}
