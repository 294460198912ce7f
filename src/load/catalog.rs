//! The scenarios that ship inside the binary.

/// Scenarios compiled into the binary: (name, JSON source).
/// In teaching order: the basic loop, then one mechanism each, then the
/// harness mistakes (each the what-if twin of an earlier scenario).
pub const CATALOG: &[(&str, &str)] = &[
    (
        "read-config-timeout",
        include_str!("../../scenarios/read-config-timeout.json"),
    ),
    (
        "wrong-path-first",
        include_str!("../../scenarios/wrong-path-first.json"),
    ),
    (
        "wrong-path-first-anthropic",
        include_str!("../../scenarios/wrong-path-first-anthropic.json"),
    ),
    (
        "explain-entry",
        include_str!("../../scenarios/explain-entry.json"),
    ),
    // The default lesson's task with its replies streamed (issue 36).
    (
        "streaming-one-call",
        include_str!("../../scenarios/streaming-one-call.json"),
    ),
    (
        "parallel-calls-out-of-order",
        include_str!("../../scenarios/parallel-calls-out-of-order.json"),
    ),
    (
        "parallel-calls-anthropic",
        include_str!("../../scenarios/parallel-calls-anthropic.json"),
    ),
    (
        "refused-tool",
        include_str!("../../scenarios/refused-tool.json"),
    ),
    (
        "path-outside-workspace",
        include_str!("../../scenarios/path-outside-workspace.json"),
    ),
    (
        "patch-and-test",
        include_str!("../../scenarios/patch-and-test.json"),
    ),
    (
        "verify-before-done",
        include_str!("../../scenarios/verify-before-done.json"),
    ),
    (
        "budget-exhausted",
        include_str!("../../scenarios/budget-exhausted.json"),
    ),
    (
        "harness-drops-results",
        include_str!("../../scenarios/harness-drops-results.json"),
    ),
    (
        "harness-drops-calls",
        include_str!("../../scenarios/harness-drops-calls.json"),
    ),
    (
        "harness-crashes-on-error",
        include_str!("../../scenarios/harness-crashes-on-error.json"),
    ),
    (
        "harness-pairs-by-order",
        include_str!("../../scenarios/harness-pairs-by-order.json"),
    ),
    (
        "harness-trusts-done",
        include_str!("../../scenarios/harness-trusts-done.json"),
    ),
    (
        "harness-answers-with-item-id",
        include_str!("../../scenarios/harness-answers-with-item-id.json"),
    ),
    // Custom tools, policies, approval and id styles (issue 9).
    (
        "seed-agent-loop",
        include_str!("../../scenarios/seed-agent-loop.json"),
    ),
    (
        "approve-side-effects",
        include_str!("../../scenarios/approve-side-effects.json"),
    ),
    (
        "malformed-arguments",
        include_str!("../../scenarios/malformed-arguments.json"),
    ),
    (
        "strict-schema-tool-choice",
        include_str!("../../scenarios/strict-schema-tool-choice.json"),
    ),
    // Issue 36 item 4: reasoning that travels with the calls, and its
    // what-if twin.
    (
        "reasoning-travels-with-calls",
        include_str!("../../scenarios/reasoning-travels-with-calls.json"),
    ),
    (
        "harness-drops-thinking",
        include_str!("../../scenarios/harness-drops-thinking.json"),
    ),
    (
        "reply-cut-off",
        include_str!("../../scenarios/reply-cut-off.json"),
    ),
    // Lessons of issue 9 items 4, 5, 8: rule conditions, event-anchored
    // narration, the context window and compaction.
    (
        "prompt-injection-in-file",
        include_str!("../../scenarios/prompt-injection-in-file.json"),
    ),
    (
        "exfiltration-needs-approval",
        include_str!("../../scenarios/exfiltration-needs-approval.json"),
    ),
    // Issue 36 item 7: tools from an MCP server, and a description that
    // carries an injection.
    (
        "mcp-tools-from-a-server",
        include_str!("../../scenarios/mcp-tools-from-a-server.json"),
    ),
    (
        "context-compaction-summary",
        include_str!("../../scenarios/context-compaction-summary.json"),
    ),
    (
        "context-compaction-lost-fact",
        include_str!("../../scenarios/context-compaction-lost-fact.json"),
    ),
    // Issue 36 item 3: prompt caching, the provider's cache of a stable
    // prefix and what it costs.
    (
        "prompt-cache-stable-prefix",
        include_str!("../../scenarios/prompt-cache-stable-prefix.json"),
    ),
    // Issue 36 item 8: an interrupt, and its what-if twin.
    (
        "interrupt-pending-calls",
        include_str!("../../scenarios/interrupt-pending-calls.json"),
    ),
    (
        "interrupt-forgets-results",
        include_str!("../../scenarios/interrupt-forgets-results.json"),
    ),
    // Issue 36 item 2: rate limits and retries, a host-keyed operation.
    (
        "rate-limit-retry",
        include_str!("../../scenarios/rate-limit-retry.json"),
    ),
    // A sub-agent's own loop and context, linked to the call that starts
    // it (issue 36).
    (
        "sub-agent-own-context",
        include_str!("../../scenarios/sub-agent-own-context.json"),
    ),
];

pub const DEFAULT_SCENARIO: &str = "read-config-timeout";
