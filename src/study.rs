//! Self-study: where a learner left each lesson (the last step seen) and
//! their quiz score in it, kept in a small JSON file in the user's state
//! directory (`$XDG_STATE_HOME/agent-loop-sim/progress.json`, else
//! `~/.local/state/…`; elsewhere the platform's local data folder). The
//! picker shows it and a lesson opens where it was left.
//!
//! Only the interactive simulator reads or writes it (`tui`): the batch
//! commands, exports and tests never do unless they name a directory.
//! A file that cannot be read is ignored with a note, never a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::picker::Source;

/// The file's name in the state directory's `agent-loop-sim` folder.
const FILE: &str = "progress.json";

/// Every lesson the learner has opened, by `key`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    pub lessons: BTreeMap<String, Progress>,
}

/// Where one lesson was left.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// The last step seen (1-based) and how many the run has.
    pub step: usize,
    pub steps: usize,
    /// The quiz of the latest session that answered any question: right
    /// answers, answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiz: Option<(usize, usize)>,
}

/// The progress an interactive session keeps: what was read, and the key
/// of each lesson in the picker (`Picker::lessons`, in its order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kept {
    pub study: Study,
    pub keys: Vec<Option<String>>,
    /// Where it is saved.
    pub path: PathBuf,
}

impl Kept {
    /// Where lesson `i` of the picker was left, if it was.
    pub fn of(&self, i: usize) -> Option<&Progress> {
        let key = self.keys.get(i)?.as_ref()?;
        self.study.lessons.get(key)
    }
}

/// The progress kept at `path` for the picker's `lessons`, and a note when
/// the file was not usable.
pub fn open(path: PathBuf, lessons: &[crate::picker::Lesson]) -> (Kept, Option<String>) {
    let (study, note) = read(&path);
    let keys = lessons.iter().map(|l| key(&l.source)).collect();
    (Kept { study, keys, path }, note)
}

/// The name a lesson is kept under: its shipped name, or its file's full
/// path. A transcript is not kept.
pub fn key(source: &Source) -> Option<String> {
    match source {
        Source::Shipped(name) => Some((*name).to_string()),
        Source::File(path) => {
            let full = std::fs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(path));
            Some(format!("file:{}", full.display()))
        }
        Source::Transcript(_) => None,
    }
}

/// The state file: in `dir` when one is given, else in the user's state
/// directory. None where there is no home to find it in.
pub fn path(dir: Option<&Path>) -> Option<PathBuf> {
    let dir = match dir {
        Some(dir) => dir.to_path_buf(),
        None => dirs::state_dir()
            .or_else(dirs::data_local_dir)?
            .join("agent-loop-sim"),
    };
    Some(dir.join(FILE))
}

/// The state kept at `path`: empty when there is none yet; when it
/// cannot be read or is not what this program writes, empty too, with a
/// note saying so (the file is replaced when progress is next saved).
pub fn read(path: &Path) -> (Study, Option<String>) {
    let note = |why: String| {
        format!(
            "agent-loop-sim: ignoring the progress file {}: {why}; it will be replaced",
            crate::safe::escape(&path.display().to_string())
        )
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Study::default(), None),
        Err(e) => return (Study::default(), Some(note(e.to_string()))),
    };
    match serde_json::from_slice::<Study>(&bytes) {
        Ok(study) => (study, None),
        // serde_json's words end with the line and column.
        Err(e) => (Study::default(), Some(note(e.to_string()))),
    }
}

/// Write `study` to `path` whole: to a temporary name first, then renamed,
/// so a crash never leaves half a file.
pub fn write(path: &Path, study: &Study) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    let mut text = serde_json::to_string_pretty(study).map_err(std::io::Error::other)?;
    text.push('\n');
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("als-study-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn what_is_written_is_read_back() {
        let path = path(Some(&dir("round"))).unwrap();
        assert_eq!(read(&path), (Study::default(), None), "no file yet");
        let mut study = Study::default();
        study.lessons.insert(
            "read-config-timeout".into(),
            Progress {
                step: 5,
                steps: 8,
                quiz: Some((2, 3)),
            },
        );
        write(&path, &study).unwrap();
        assert_eq!(read(&path), (study, None));
    }

    #[test]
    fn a_broken_file_is_ignored_with_a_note_naming_it_and_the_place() {
        let path = path(Some(&dir("broken"))).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{\"lessons\": {\"x\": {\"step\": \"five\"").unwrap();
        let (study, note) = read(&path);
        assert_eq!(study, Study::default());
        let note = note.expect("a note");
        assert!(note.contains(&path.display().to_string()), "{note}");
        assert!(note.contains("at line 1 column"), "{note}");
    }
}
