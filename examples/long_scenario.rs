//! Print a synthetic long scenario (default 1,000 model calls) as JSON, to
//! measure the real binary on it:
//!
//!     cargo run --release --example long_scenario > /tmp/long.json
//!     /usr/bin/time -v target/release/agent-loop-sim check /tmp/long.json
//!     target/release/agent-loop-sim --scenario /tmp/long.json

#[path = "../benches/support/long_scenario.rs"]
mod long_scenario;

fn main() {
    let calls = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("the number of model calls, 1 to 10000"))
        .unwrap_or(1000);
    println!("{}", long_scenario::json(calls));
}
