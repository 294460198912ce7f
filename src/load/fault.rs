//! A scenario that cannot be used: where, what was expected, and how
//! serious it is.

use std::fmt;

use super::wording::{char_column, describe_json_error, in_file, join_path, json_path, printable};

/// Longest message shown for one error: an error is a line or two,
/// whatever the file holds (long enough for "not a transcript" to name
/// every format read, 11 of them).
const MAX_MESSAGE_CHARS: usize = 500;

/// A scenario that cannot be used, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The file as the user named it (or `<builtin:NAME>`).
    pub file: String,
    /// `line:column`, a JSON path such as `model[2].calls[0].tool`, or both
    /// (`12:5 at budget`).
    pub place: Option<String>,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    /// One short line: the text comes from the file, so control characters
    /// are escaped (no terminal escapes get through) and length is capped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = printable(&self.file, MAX_MESSAGE_CHARS);
        let message = printable(&self.message, MAX_MESSAGE_CHARS);
        match &self.place {
            Some(place) => write!(f, "{file}: {}: {message}", printable(place, 120)),
            None => write!(f, "{file}: {message}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// How serious a fault is. An error fails `check` (exit 2); a warning is
/// printed, and a file with only warnings passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One thing wrong with a scenario file, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub severity: Severity,
    pub error: ScenarioError,
}

impl fmt::Display for Fault {
    /// As `ScenarioError` shows it; a warning says so after the place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.severity {
            Severity::Error => write!(f, "{}", self.error),
            Severity::Warning => {
                let warning = ScenarioError {
                    message: format!("warning: {}", self.error.message),
                    ..self.error.clone()
                };
                write!(f, "{warning}")
            }
        }
    }
}

impl Fault {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The place and what was expected, without the file: for a screen
    /// that already names it. Escaped, as `Display` is.
    pub fn without_file(&self) -> String {
        let shown = self.to_string();
        let file = format!("{}: ", printable(&self.error.file, MAX_MESSAGE_CHARS));
        shown.strip_prefix(&file).unwrap_or(&shown).to_string()
    }
}

/// serde's error for the JSON that starts at byte `start` of `text` at the
/// JSON path `prefix` (0 and "" for the whole file), as an author reads
/// it: the place in the file (line:column, then the path) and what was
/// expected. With serde's own error, to tell what kind it is.
pub(super) fn value_fault(
    file: &str,
    text: &str,
    start: usize,
    prefix: &str,
    e: serde_path_to_error::Error<serde_json::Error>,
) -> (ScenarioError, serde_json::Error) {
    let path = join_path(prefix, &json_path(e.path()));
    let inner = e.into_inner();
    let mut place = match inner.line() {
        0 => String::new(),
        line => {
            let (line, column) = in_file(text, start, line, inner.column());
            let (line, column) = char_column(text, line, column);
            format!("{line}:{column}")
        }
    };
    if !path.is_empty() {
        if !place.is_empty() {
            place.push(' ');
        }
        place.push_str("at ");
        place.push_str(&path);
    }
    let fault = ScenarioError {
        file: file.to_string(),
        place: (!place.is_empty()).then_some(place),
        message: describe_json_error(&inner, &path),
    };
    (fault, inner)
}
