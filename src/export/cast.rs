//! An asciicast v2 recording (https://docs.asciinema.org/manual/asciicast/v2/):
//! one header line, then one screenful per step and a marker naming it, so
//! the player's progress bar lists the steps. No timestamp in the header:
//! the file is the same on every run.

use serde_json::json;

/// One step of the recording: its ANSI lines and its marker label.
pub struct Step {
    pub lines: Vec<String>,
    pub marker: String,
}

/// Clear the screen, home the cursor (and hide it: this is a slide show).
const CLEAR: &str = "\x1b[?25l\x1b[H\x1b[2J";

pub fn render(steps: &[Step], (width, height): (u16, u16), title: &str, dwell: f64) -> String {
    let header = json!({
        "version": 2,
        "width": width,
        "height": height,
        "title": title,
        "env": { "TERM": "xterm-256color" },
    });
    let mut out = header.to_string();
    out.push('\n');
    // Times in whole milliseconds, so 3 × 0.1 s is written 0.3, not 0.30000000000000004.
    let dwell_ms = (dwell * 1000.0).round() as u64;
    let at = |i: usize| (i as u64 * dwell_ms) as f64 / 1000.0;
    let mut event = |t: f64, kind: &str, data: &str| {
        out.push_str(&json!([t, kind, data]).to_string());
        out.push('\n');
    };
    for (i, step) in steps.iter().enumerate() {
        // \r\n: the terminal is in raw mode when a player replays output.
        let screen = format!("{CLEAR}{}", step.lines.join("\r\n"));
        event(at(i), "o", &screen);
        event(at(i), "m", &step.marker);
    }
    // Keep the last step on screen for its dwell time too, then show the
    // cursor again.
    event(at(steps.len()), "o", "\x1b[0m\x1b[?25h");
    out
}
