//! Print the synthetic many-rules scenario (default 10,000 rules, 8 calls
//! per reply, 190,002 steps) as JSON, to time the real binary on it:
//!
//!     cargo run --release --example many_rules > /tmp/many.json
//!     time target/release/agent-loop-sim check /tmp/many.json

#[path = "../benches/support/many_rules.rs"]
mod many_rules;

fn main() {
    let rules = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("the number of rules"))
        .unwrap_or(10_000);
    println!("{}", many_rules::json(rules));
}
