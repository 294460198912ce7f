//! An asciicast v2 recording (https://docs.asciinema.org/manual/asciicast/v2/):
//! one header line, then one screenful per step and a marker naming it, so
//! the player's progress bar lists the steps. No timestamp in the header:
//! the file is the same on every run. The header's `theme` (fg, bg and the
//! 16-colour palette) makes players show the figures' colours, not their own.
//!
//! Written as a stream: each step is rendered, written and dropped before
//! the next, so a recording of thousands of steps never sits in memory.

use std::io::{self, Write};

use serde_json::json;

use crate::theme::{Rgb, Theme};

/// One step of the recording: its ANSI lines and its marker label.
pub struct Step {
    pub lines: Vec<String>,
    pub marker: String,
}

/// Clear the screen, home the cursor (and hide it: this is a slide show).
const CLEAR: &str = "\x1b[?25l\x1b[H\x1b[2J";

/// Write the recording of `steps` to `out`.
pub fn write(
    out: &mut impl Write,
    steps: impl Iterator<Item = Step>,
    (width, height): (u16, u16),
    title: &str,
    theme: Theme,
    dwell: f64,
) -> io::Result<()> {
    let palette: Vec<String> = theme.palette16().iter().map(|c| hex(*c)).collect();
    let header = json!({
        "version": 2,
        "width": width,
        "height": height,
        "title": title,
        "env": { "TERM": "xterm-256color" },
        "theme": {
            "fg": hex(theme.page_fg()),
            "bg": hex(theme.page()),
            "palette": palette.join(":"),
        },
    });
    writeln!(out, "{header}")?;
    // Times in whole milliseconds, so 3 × 0.1 s is written 0.3, not 0.30000000000000004.
    let dwell_ms = (dwell * 1000.0).round() as u64;
    let at = |i: usize| (i as u64 * dwell_ms) as f64 / 1000.0;
    let event = |out: &mut dyn Write, t: f64, kind: &str, data: &str| {
        writeln!(out, "{}", json!([t, kind, data]))
    };
    let mut count = 0;
    for (i, step) in steps.enumerate() {
        // \r\n: the terminal is in raw mode when a player replays output.
        let screen = format!("{CLEAR}{}", step.lines.join("\r\n"));
        event(out, at(i), "o", &screen)?;
        event(out, at(i), "m", &step.marker)?;
        count = i + 1;
    }
    // Keep the last step on screen for its dwell time too, then show the
    // cursor again.
    event(out, at(count), "o", "\x1b[0m\x1b[?25h")
}

fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}
