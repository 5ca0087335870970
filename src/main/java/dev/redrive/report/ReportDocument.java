package dev.redrive.report;

import java.time.Instant;
import java.util.List;

/**
 * The layout every human-readable format renders: the summary a reader sees first, then sections of facts, tables,
 * timelines and code.
 *
 * @param summary what the first screen states: each operation's status, side effect, decisions and verification
 * @param time    how the renderers write the moments they draw themselves (timeline axes)
 */
record ReportDocument(String title, List<Block> summary, List<Section> sections, ReportTime time) {

    record KeyValue(String key, String value) {
    }

    record Section(String title, int level, List<Block> blocks) {
    }

    sealed interface Block permits Paragraph, Facts, Table, Code, Timeline {
    }

    record Paragraph(String text) implements Block {
    }

    record Facts(List<KeyValue> values) implements Block {
    }

    record Table(List<String> headers, List<List<String>> rows) implements Block {
    }

    record Code(String text) implements Block {
    }

    /** Attempts as bars on a time axis, redrive commands as markers. */
    record Timeline(Instant from, Instant to, List<Bar> bars, List<Marker> markers) implements Block {
    }

    record Bar(String label, Instant start, Instant end, String outcome, String detail) {
    }

    record Marker(Instant at, String label) {
    }
}
