package dev.redrive.broker;

import dev.redrive.testing.TestNamespace;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A script runs by its SHA-1 once the server knows it, and is loaded again when the server has forgotten it. */
class RedisScriptTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Pattern CALLS = Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+)");

    @Test
    void runsByItsSha_andLoadsItAgainAfterTheServerForgotIt() {
        Redis redis = ns.redis();
        String key = redis.keys().marker() + ":script-test";
        RedisScript increment = new RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])");
        long evalBefore = calls(redis, "eval");
        long evalshaBefore = calls(redis, "evalsha");

        Long first = increment.run(redis, ScriptOutputType.INTEGER, new String[]{key}, "2");
        Long second = increment.run(redis, ScriptOutputType.INTEGER, new String[]{key}, "3");
        String sha = redis.sync().digest("return redis.call('INCRBY', KEYS[1], ARGV[1])");
        boolean knownBeforeFlush = redis.sync().scriptExists(sha).get(0);
        redis.sync().scriptFlush();
        boolean knownAfterFlush = redis.sync().scriptExists(sha).get(0);
        Long afterFlush = increment.run(redis, ScriptOutputType.INTEGER, new String[]{key}, "4");
        redis.sync().del(key);

        assertThat(first).isEqualTo(2L);
        assertThat(second).isEqualTo(5L);
        assertThat(afterFlush).isEqualTo(9L);
        assertThat(knownBeforeFlush).isTrue();
        assertThat(knownAfterFlush).isFalse();
        assertThat(redis.sync().scriptExists(sha)).containsExactly(true);
        // Every run tries EVALSHA first; EVAL loads the script where the server does not know it (at first, after the
        // flush). At least: workers of other test classes may share this server.
        assertThat(calls(redis, "evalsha") - evalshaBefore).isGreaterThanOrEqualTo(3);
        assertThat(calls(redis, "eval") - evalBefore).isGreaterThanOrEqualTo(2);
    }

    private static long calls(Redis redis, String command) {
        Matcher matcher = CALLS.matcher(redis.sync().info("commandstats"));
        while (matcher.find()) {
            if (matcher.group(1).equals(command)) {
                return Long.parseLong(matcher.group(2));
            }
        }
        return 0;
    }
}
