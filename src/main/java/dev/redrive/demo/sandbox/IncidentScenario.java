package dev.redrive.demo.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.demo.tools.DemoTool;
import dev.redrive.identity.OperationId;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * The incident the sandbox seeds, as plain data: a night in which a billing batch met a throttling payment processor,
 * the carrier gateway went down and changed its schema, refund approvals were suspended, a backfill was cancelled and
 * a checkout client sent one charge with its amount as text, and one merchant payout never got through.
 * Deterministic for a given day and random seed, so re-seeding produces the same incident.
 */
public final class IncidentScenario {
    /** The tool whose schema the incident changes after its operations failed, and the version it changes to. */
    public static final DemoTool CHANGED_TOOL = DemoTool.SHIP;
    public static final String CHANGED_SCHEMA_VERSION = "2";
    public static final String ORIGINAL_SCHEMA_VERSION = "1";
    /** The run of the one charge a correction fixes: its id is this prefix and the day. */
    public static final String CHECKOUT_RUN_PREFIX = "checkout-";
    /**
     * The run of the merchant payouts, of which one fails for good: the only operations of {@link #FOUR_EYES_TOOL}, so
     * the sandbox's four-eyes rule for that tool covers the discard of that one entry and no other decision.
     */
    public static final String PAYOUTS_RUN_PREFIX = "payouts-";
    public static final DemoTool FOUR_EYES_TOOL = DemoTool.PAYOUT;
    /** The fault of the payout that fails for good (no count: a redrive fails the same way). */
    static final String LOST_PAYOUT_FAULT = "dependency_down";

    /**
     * A fault count that outlasts the sandbox worker's attempts: the operation is dead-lettered, and a redrive (one
     * attempt more) then succeeds, as when a dependency has recovered. Faults without a count fail a redrive too.
     */
    static final int EXHAUSTS_RETRIES = SandboxWorker.MAX_RETRYABLE_ATTEMPTS;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] CITIES = {"Berlin", "Lisbon", "Lyon", "Porto", "Graz", "Utrecht", "Gdansk", "Turin"};
    private static final String[] COUNTRIES = {"DE", "PT", "FR", "PT", "AT", "NL", "PL", "IT"};

    private final String day;
    private final Random random;
    private int sequence = 10_000;

    private IncidentScenario(LocalDate day, long seed) {
        this.day = day.format(DateTimeFormatter.BASIC_ISO_DATE);
        this.random = new Random(seed);
    }

    /** The runs of the incident of {@code day}. */
    public static SeededIncident plan(LocalDate day, SeedSize size) {
        return new IncidentScenario(day, 20261129L).build(size);
    }

    private SeededIncident build(SeedSize size) {
        String refundsApproval = "appr-refunds-" + day;
        String cancelledRun = "backfill-" + day;
        PlannedRun billing = billing(size);
        PlannedRun payouts = payouts(size);
        List<PlannedRun> runs = List.of(
                billing,
                fulfilment(size),
                refunds(size, refundsApproval),
                receipts(size),
                backfill(size, cancelledRun),
                checkout(),
                payouts);
        return new SeededIncident(runs, billing.runId(), refundsApproval, cancelledRun, payouts.runId());
    }

    private PlannedRun billing(SeedSize size) {
        Run run = new Run("billing-" + day, DemoTool.CHARGE, ORIGINAL_SCHEMA_VERSION, null);
        run.add(size.count(80), null, this::charge);
        run.add(size.count(14), "rate_limit:2:1", this::charge);
        run.add(size.count(10), "transient:1", this::charge);
        run.add(size.count(5), "rate_limit:" + EXHAUSTS_RETRIES + ":1", this::charge);
        run.add(size.count(4), "rate_limit", this::charge);
        run.add(size.count(5), "transient:" + EXHAUSTS_RETRIES, this::charge);
        run.add(size.count(3), "transient", this::charge);
        run.add(size.count(6), "timeout_after_apply:1", this::charge);
        run.add(size.count(3), "timeout_after_apply;lookup_down:1", this::charge);
        run.add(size.count(2), "timeout_after_apply;lookup_down", this::charge);
        run.add(size.count(4), "invalid", this::rejectedCharge);
        return run.toPlan("Nightly billing: the payment processor throttled and timed out; five charges may have "
                + "been taken without the worker knowing.");
    }

    private PlannedRun fulfilment(SeedSize size) {
        Run run = new Run("fulfilment-" + day, CHANGED_TOOL, ORIGINAL_SCHEMA_VERSION, null);
        run.add(size.count(50), null, this::shipment);
        run.add(size.count(10), "dependency_down:2", this::shipment);
        run.add(size.count(6), "dependency_down:" + EXHAUSTS_RETRIES, this::shipment);
        run.add(size.count(4), "dependency_down", this::shipment);
        run.add(size.count(12), "invalid", this::shipmentWithoutCountry);
        run.add(size.count(4), "timeout_before_apply:1;lookup_down:1", this::shipment);
        return run.toPlan("Fulfilment: the carrier gateway was down, then shipped schema v2 (country code required); "
                + "labels booked under v1 need a schema-aware redrive.");
    }

    private PlannedRun refunds(SeedSize size, String approvalId) {
        Run run = new Run("refunds-" + day, DemoTool.CHARGE, ORIGINAL_SCHEMA_VERSION, approvalId);
        run.add(size.count(18), null, this::refund);
        run.add(size.count(12), "forbidden", this::refund);
        return run.toPlan("Refunds under approval " + approvalId + ": the processor refused some, and security "
                + "revoked the approval afterwards.");
    }

    private PlannedRun receipts(SeedSize size) {
        Run run = new Run("receipts-" + day, DemoTool.NOTIFY, ORIGINAL_SCHEMA_VERSION, null);
        run.add(size.count(45), null, this::receipt);
        run.add(size.count(8), "transient:2", this::receipt);
        run.add(size.count(4), "rate_limit:1:1", this::receipt);
        run.add(size.count(3), "forbidden", this::receipt);
        return run.toPlan("Receipts: mostly fine; a few recipients unsubscribed (permission).");
    }

    private PlannedRun backfill(SeedSize size, String runId) {
        Run run = new Run(runId, DemoTool.CHARGE, ORIGINAL_SCHEMA_VERSION, null);
        run.add(size.count(12), null, this::charge);
        run.add(size.count(10), "transient", this::charge);
        return run.toPlan("A backfill of missed charges that kept failing and was cancelled: its dead letters must "
                + "never run again.");
    }

    /** One charge whose payload is wrong, not the processor: only a correction fixes it, a redrive fails the same way. */
    private PlannedRun checkout() {
        Run run = new Run(CHECKOUT_RUN_PREFIX + day, DemoTool.CHARGE, ORIGINAL_SCHEMA_VERSION, null);
        run.add(1, null, this::chargeWithAmountAsText);
        return run.toPlan("Checkout: a client release sent the amount as text (\"129.90 EUR\"); the processor refused "
                + "it as invalid input. Correct the payload and redrive it: the correction is the node's next logical "
                + "attempt, under its own idempotency key.");
    }

    /**
     * Merchant payouts: all but one go through; the payout provider never answers for the last, whatever the retries.
     * Its discard is the sandbox's four-eyes request (see {@link IncidentHistory}).
     */
    private PlannedRun payouts(SeedSize size) {
        Run run = new Run(PAYOUTS_RUN_PREFIX + day, FOUR_EYES_TOOL, ORIGINAL_SCHEMA_VERSION, null);
        run.add(size.count(8), null, this::payout);
        run.add(1, LOST_PAYOUT_FAULT, this::payout);
        return run.toPlan("Merchant payouts: the payout provider was unreachable for one merchant's payout all night. "
                + "Decisions on " + FOUR_EYES_TOOL.toolName() + " need a second operator's approval (four-eyes), so "
                + "the discard one operator asks for waits for another.");
    }

    private ObjectNode payout(int n) {
        return JSON.createObjectNode()
                .put("amount", amount(200, 9_000))
                .put("currency", "EUR")
                .put("merchant", "mer_" + hex(6))
                .put("statement", "st-" + n);
    }

    private ObjectNode chargeWithAmountAsText(int n) {
        ObjectNode payload = charge(n);
        return payload.put("amount", payload.get("amount").decimalValue().toPlainString() + " EUR");
    }

    private ObjectNode charge(int n) {
        return JSON.createObjectNode()
                .put("amount", amount(5, 480))
                .put("currency", "EUR")
                .put("customer", "cus_" + hex(6))
                .put("invoice", "inv-" + n)
                .put("card_number", "4111 1111 1111 " + (1000 + random.nextInt(9000)));
    }

    private ObjectNode rejectedCharge(int n) {
        return charge(n).put("amount", amount(-90, -1)).put("currency", (String) null);
    }

    private ObjectNode refund(int n) {
        return JSON.createObjectNode()
                .put("amount", amount(5, 150))
                .put("currency", "EUR")
                .put("refund_of", "inv-" + (n - 3000))
                .put("authorization", "Bearer rk_live_" + hex(12));
    }

    private ObjectNode shipment(int n) {
        int city = random.nextInt(CITIES.length);
        ObjectNode payload = JSON.createObjectNode().put("order", "order-" + n);
        payload.putObject("parcel").put("weight_kg", amount(1, 25));
        payload.putObject("address").put("line1", (1 + random.nextInt(180)) + " Market Street")
                .put("city", CITIES[city]).put("country_code", COUNTRIES[city]);
        return payload;
    }

    private ObjectNode shipmentWithoutCountry(int n) {
        ObjectNode payload = shipment(n);
        ((ObjectNode) payload.get("address")).remove("country_code");
        return payload;
    }

    private ObjectNode receipt(int n) {
        return JSON.createObjectNode()
                .put("to", "customer-" + n + "@example.com")
                .put("template", "receipt")
                .put("order", "order-" + n);
    }

    private BigDecimal amount(int from, int to) {
        return BigDecimal.valueOf(from * 100L + random.nextInt((to - from) * 100)).movePointLeft(2)
                .setScale(2, RoundingMode.UNNECESSARY);
    }

    private String hex(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }

    private interface PayloadMaker {
        ObjectNode make(int number);
    }

    /** Collects a run's operations, giving each its own node, trace and correlation ids. */
    private final class Run {
        private final String runId;
        private final DemoTool tool;
        private final String schemaVersion;
        private final String approvalId;
        private final List<PlannedOperation> operations = new ArrayList<>();

        Run(String runId, DemoTool tool, String schemaVersion, String approvalId) {
            this.runId = runId;
            this.tool = tool;
            this.schemaVersion = schemaVersion;
            this.approvalId = approvalId;
        }

        void add(int count, String fault, PayloadMaker maker) {
            for (int i = 0; i < count; i++) {
                int number = ++sequence;
                ObjectNode payload = maker.make(number);
                if (fault != null) {
                    payload.put("fault", fault);
                }
                String nodeId = tool.toolName().substring("demo.".length()) + "-" + number;
                operations.add(new PlannedOperation(new OperationId(runId, nodeId, 0), tool, schemaVersion,
                        payload.toString(), hex(16), "order-" + number, approvalId));
            }
        }

        PlannedRun toPlan(String story) {
            return new PlannedRun(runId, story, shuffled(operations));
        }

        private List<PlannedOperation> shuffled(List<PlannedOperation> planned) {
            List<PlannedOperation> copy = new ArrayList<>(planned);
            java.util.Collections.shuffle(copy, random);
            return copy;
        }
    }
}
