package dev.redrive.demo.tools;

/**
 * The remote systems the demo tool service plays. Each is served at {@code /tools/{name}} and looked up at
 * {@code /tools/{name}/effects/{idempotencyKey}}; they differ only in what their results are called.
 */
public enum DemoTool {
    /** Takes a payment: the tool of the design's contract. */
    CHARGE("demo.charge", "charge_id", "ch_", "payment processor"),
    /** Books a shipment with a carrier. */
    SHIP("demo.ship", "shipment_id", "shp_", "carrier gateway"),
    /** Sends a customer notification. */
    NOTIFY("demo.notify", "message_id", "msg_", "mail relay"),
    /** Pays a merchant's balance out; the sandbox's four-eyes policy covers decisions on its operations. */
    PAYOUT("demo.payout", "payout_id", "po_", "payout provider");

    private final String toolName;
    private final String resultIdField;
    private final String resultIdPrefix;
    private final String remoteSystem;

    DemoTool(String toolName, String resultIdField, String resultIdPrefix, String remoteSystem) {
        this.toolName = toolName;
        this.resultIdField = resultIdField;
        this.resultIdPrefix = resultIdPrefix;
        this.remoteSystem = remoteSystem;
    }

    /** The name a worker registers the tool under, e.g. {@code demo.charge}. */
    public String toolName() {
        return toolName;
    }

    String resultIdField() {
        return resultIdField;
    }

    String resultIdPrefix() {
        return resultIdPrefix;
    }

    /** What the tool's error messages call the system behind it. */
    String remoteSystem() {
        return remoteSystem;
    }

    /** Where the demo tool server takes this tool's calls, relative to its base URL. */
    public String path() {
        return "/tools/" + toolName;
    }

    /** Where the demo tool server answers look-ups by idempotency key (append the key), relative to its base URL. */
    public String lookupPrefix() {
        return path() + "/effects/";
    }
}
