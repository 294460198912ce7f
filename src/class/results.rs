//! `--class-results FILE`: each asked question's counts per round, as CSV
//! or JSON by the file's extension. Counts only: no device, no address, no
//! time, nothing a student typed (they type nothing).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::app::App;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
}

/// The format `path` names, or what was expected.
pub fn format_of(path: &Path) -> Result<Format, String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("csv") => Ok(Format::Csv),
        Some(e) if e.eq_ignore_ascii_case("json") => Ok(Format::Json),
        _ => Err(format!(
            "--class-results {}: expected a file ending in .csv or .json",
            path.display()
        )),
    }
}

#[derive(Serialize)]
struct Question {
    /// 1-based, as the screen numbers steps.
    step: usize,
    question: String,
    choices: Vec<String>,
    /// 1-based.
    answer: usize,
    revealed: bool,
    rounds: Vec<Round>,
}

#[derive(Serialize)]
struct Round {
    round: usize,
    answered: u32,
    counts: Vec<u32>,
}

fn questions(app: &App) -> Vec<Question> {
    let Some(class) = &app.class else {
        return Vec::new();
    };
    class
        .tallies
        .iter()
        .filter_map(|(&step, rounds)| {
            let q = crate::quiz::asked(&app.loaded, app.trace(), step)?;
            Some(Question {
                step: step + 1,
                question: q.prompt,
                answer: q.answer + 1,
                revealed: class.revealed.contains(&step),
                rounds: rounds
                    .iter()
                    .enumerate()
                    .map(|(i, counts)| Round {
                        round: i + 1,
                        answered: counts.iter().sum(),
                        // A round with no vote yet has an empty list.
                        counts: (0..q.choices.len())
                            .map(|c| counts.get(c).copied().unwrap_or(0))
                            .collect(),
                    })
                    .collect(),
                choices: q.choices,
            })
        })
        .collect()
}

/// The results as text in `format`.
pub fn text(app: &App, format: Format) -> String {
    let questions = questions(app);
    match format {
        Format::Json => {
            let lesson = &app.trace().scenario;
            let value = serde_json::json!({ "lesson": lesson, "questions": questions });
            let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Csv => {
            let mut s =
                String::from("step,round,choice,right,count,answered,question,choice_text\n");
            for q in &questions {
                for r in &q.rounds {
                    for (c, count) in r.counts.iter().enumerate() {
                        s.push_str(&format!(
                            "{},{},{},{},{},{},{},{}\n",
                            q.step,
                            r.round,
                            c + 1,
                            c + 1 == q.answer,
                            count,
                            r.answered,
                            csv_field(&q.question),
                            csv_field(&q.choices[c]),
                        ));
                    }
                }
            }
            s
        }
    }
}

/// A CSV field (RFC 4180): quoted, its quotes doubled. A leading `=`, `+`,
/// `-` or `@` is kept as text by a spreadsheet only after a `'`.
fn csv_field(s: &str) -> String {
    let s = match s.chars().next() {
        Some('=' | '+' | '-' | '@') => format!("'{s}"),
        _ => s.to_string(),
    };
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// Write the results to `path`: a temporary file beside it, renamed into
/// place, so a reader never sees half a file.
pub fn write(path: &Path, app: &App) -> std::io::Result<()> {
    let format = format_of(path).map_err(std::io::Error::other)?;
    let mut tmp = PathBuf::from(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    tmp.set_file_name(format!(".{}.tmp", name.unwrap_or_default()));
    std::fs::write(&tmp, text(app, format))?;
    std::fs::rename(&tmp, path)
}
