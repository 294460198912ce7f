//! Why an export failed.

use std::fmt;
use std::process::ExitCode;

use crate::load;
use crate::output::EXIT_BAD_INPUT;

/// Why an export failed; each kind has its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The scenario cannot be used: printed exactly as `check` prints it.
    Scenario(load::ScenarioError),
    /// The arguments do not fit the scenario (e.g. `--steps` out of range).
    BadInput(String),
    /// The files could not be written.
    Io(String),
    /// This machine lacks something the format needs (a font for PNG).
    Missing(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Scenario(e) => write!(f, "{e}"),
            ExportError::BadInput(m) | ExportError::Io(m) | ExportError::Missing(m) => {
                write!(f, "export: {m}")
            }
        }
    }
}

impl std::error::Error for ExportError {}

impl ExportError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            ExportError::Scenario(_) | ExportError::BadInput(_) => ExitCode::from(EXIT_BAD_INPUT),
            ExportError::Io(_) | ExportError::Missing(_) => ExitCode::FAILURE,
        }
    }
}
