package dev.redrive.testing;

import dev.redrive.worker.tool.Tool;

/**
 * A tool made for one test: it only needs a name and what it does with a call; its payloads are of schema version 1,
 * the version the test fixtures register for every tool.
 */
public abstract class TestTool implements Tool {
    private final String name;

    protected TestTool(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String schemaVersion() {
        return "1";
    }
}
