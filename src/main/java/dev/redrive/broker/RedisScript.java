package dev.redrive.broker;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script sent once and then run by its SHA-1 (EVALSHA): a worker runs some of them every 100 ms, and EVAL would
 * send the whole text each time. A server that does not know the script (restarted, failed over, another cluster
 * node, SCRIPT FLUSH) answers NOSCRIPT, and the script is run with EVAL, which loads it there.
 */
public final class RedisScript {
    private final String source;
    private final String sha;

    public RedisScript(String source) {
        this.source = source;
        this.sha = sha1(source);
    }

    public <T> T run(Redis redis, ScriptOutputType type, String[] keys, String... args) {
        try {
            return redis.sync().evalsha(sha, type, keys, args);
        } catch (RedisNoScriptException e) {
            return redis.sync().eval(source, type, keys, args);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }
}
