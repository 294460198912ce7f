//! JSON lines, read one line at a time: a 500 MB session is streamed, never
//! held whole. A line that is not JSON is an error naming the line; a last
//! line cut short (a session still being written) is skipped and reported.

use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read};

use serde_json::Value;

use super::errors::{at_line, error};
use crate::load::ScenarioError;

pub struct Lines {
    path: String,
    reader: BufReader<File>,
    buf: Vec<u8>,
    line: usize,
    truncated: Option<usize>,
    /// The first line, read (to tell the format) and not yet handed on.
    first: Option<(usize, Value)>,
}

/// How a file that starts with `{` begins.
pub enum First {
    /// Its first line is a whole JSON value: JSON lines, that line still
    /// to come (`Lines::first`).
    Line(Lines),
    /// Its first line is not a whole value: one multi-line document, to be
    /// read from the start (the bytes already read, then the rest).
    Document(Box<dyn Read>),
}

impl Lines {
    pub fn new(path: &str, reader: BufReader<File>) -> Self {
        Lines {
            path: path.to_string(),
            reader,
            buf: Vec::new(),
            line: 0,
            truncated: None,
            first: None,
        }
    }

    /// The first line, with its number, while it is still to come.
    pub fn first(&self) -> Option<(usize, &Value)> {
        self.first.as_ref().map(|(line, value)| (*line, value))
    }

    /// Every line still to come, each given to `read` with its line
    /// number: the loop every JSON lines reader runs.
    pub fn each(
        &mut self,
        mut read: impl FnMut(usize, Value) -> Result<(), ScenarioError>,
    ) -> Result<(), ScenarioError> {
        while let Some((line, value)) = self.next_value()? {
            read(line, value)?;
        }
        Ok(())
    }

    /// The line number of a last line that was cut short, if any.
    pub fn truncated(&self) -> Option<usize> {
        self.truncated
    }

    /// Read the first line: JSON lines go on line by line; a first line that
    /// is not a whole value starts one multi-line document.
    pub fn start(mut self) -> Result<First, ScenarioError> {
        let Some(ended) = self.read_line()? else {
            return Err(at_line(
                &self.path,
                1,
                "the file is empty; expected a transcript",
            ));
        };
        let text = self.text()?;
        match serde_json::from_str::<Value>(text) {
            Ok(value) => {
                self.first = Some((self.line, value));
                Ok(First::Line(self))
            }
            Err(e) if e.is_eof() && ended => {
                let mut head = std::mem::take(&mut self.buf);
                head.push(b'\n');
                Ok(First::Document(Box::new(
                    Cursor::new(head).chain(self.reader),
                )))
            }
            Err(e) if e.is_eof() => Err(at_line(
                &self.path,
                self.line,
                "the only line is cut short; expected a whole JSON value",
            )),
            Err(e) => Err(self.not_json(&e)),
        }
    }

    /// The next line's JSON value; None at the end of the file.
    pub fn next_value(&mut self) -> Result<Option<(usize, Value)>, ScenarioError> {
        if let Some(first) = self.first.take() {
            return Ok(Some(first));
        }
        loop {
            let Some(ended) = self.read_line()? else {
                return Ok(None);
            };
            let text = self.text()?;
            if text.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Value>(text) {
                Ok(value) => return Ok(Some((self.line, value))),
                // The last line, without its newline, ends mid-value.
                Err(e) if e.is_eof() && !ended => {
                    self.truncated = Some(self.line);
                    return Ok(None);
                }
                Err(e) => return Err(self.not_json(&e)),
            }
        }
    }

    /// Read the next line into `buf` (without its line break). Returns
    /// whether it ended with a line break; None at the end of the file.
    fn read_line(&mut self) -> Result<Option<bool>, ScenarioError> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| at_line(&self.path, self.line + 1, format!("cannot read: {e}")))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        let ended = self.buf.last() == Some(&b'\n');
        if ended {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(Some(ended))
    }

    fn text(&self) -> Result<&str, ScenarioError> {
        std::str::from_utf8(&self.buf).map_err(|e| {
            let at = e.valid_up_to();
            let column = String::from_utf8_lossy(&self.buf[..at]).chars().count() + 1;
            error(
                &self.path,
                Some(format!("line {}, column {column}", self.line)),
                format!(
                    "invalid UTF-8 (byte 0x{:02X}); expected a UTF-8 text file",
                    self.buf[at]
                ),
            )
        })
    }

    fn not_json(&self, e: &serde_json::Error) -> ScenarioError {
        let text = e.to_string();
        let text = match text.rfind(" at line ") {
            Some(i) => &text[..i],
            None => &text,
        };
        error(
            &self.path,
            Some(format!("line {}, column {}", self.line, e.column())),
            format!("not JSON ({text}); expected one JSON object per line"),
        )
    }
}
