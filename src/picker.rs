//! The lesson picker (`o`): the shipped scenarios and the files named on
//! the command line, so a class can move to another lesson without
//! leaving the program. Its data lives here; `view/picker.rs` draws it.
//!
//! The lesson on screen and the files named on the command line are
//! prepared when the list is made, before the terminal is taken (a file
//! that cannot be used shows its error in the list); a shipped lesson is
//! prepared the first time it is asked for (the list opened, the plan's
//! next lesson), the whole catalogue in a few milliseconds (release;
//! `cargo bench --bench load -- catalog`): a lesson started alone does not
//! hold all 35 in memory. Enter only swaps which prepared run the app shows.

use std::sync::{Arc, OnceLock};

use crate::load::{self, CATALOG, Loaded};
use crate::scenario::Lang;

/// How the command line names a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A scenario compiled into the binary, by its catalogue name.
    Shipped(&'static str),
    /// A scenario file, as the user wrote its path.
    File(String),
    /// A transcript of a real run (`--transcript FILE`).
    Transcript(String),
}

/// One entry of the list.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub source: Source,
    /// The run ready to show, or why it cannot be shown (one line, as
    /// `check` reports it): a shipped lesson's is made when first asked
    /// for (`loaded`), in `lang`.
    prepared: OnceLock<Result<Arc<Loaded>, String>>,
    lang: Lang,
}

impl Lesson {
    /// An entry whose run is ready, or whose error is known.
    pub fn ready(source: Source, loaded: Result<Arc<Loaded>, String>) -> Lesson {
        Lesson {
            source,
            prepared: OnceLock::from(loaded),
            lang: Lang::DEFAULT,
        }
    }

    /// A shipped lesson, prepared in `lang` when first asked for.
    fn shipped(name: &'static str, lang: Lang) -> Lesson {
        Lesson {
            source: Source::Shipped(name),
            prepared: OnceLock::new(),
            lang,
        }
    }

    /// The run ready to show, or why it cannot be shown.
    pub fn loaded(&self) -> &Result<Arc<Loaded>, String> {
        self.prepared
            .get_or_init(|| prepare(&self.source, self.lang))
    }

    /// Whether the run has been prepared yet.
    pub fn is_prepared(&self) -> bool {
        self.prepared.get().is_some()
    }
}

/// The picker's state: the list, the lesson on screen, the highlighted row
/// and the first row shown. Cheap to clone (export clones the app per frame).
#[derive(Debug, Clone, Default)]
pub struct Picker {
    pub lessons: Arc<[Lesson]>,
    /// Index of the lesson the app shows now, when it is in the list.
    pub current: Option<usize>,
    /// The highlighted row.
    pub cursor: usize,
    /// The first row shown; kept so the cursor stays in view.
    pub top: usize,
    /// Today's lessons in the teacher's order (`--lesson`), as indices
    /// into `lessons`: the last step of one offers the next.
    pub plan: Arc<[usize]>,
}

impl Picker {
    pub fn new(lessons: Vec<Lesson>, current: Option<usize>) -> Picker {
        Picker {
            lessons: lessons.into(),
            current,
            cursor: current.unwrap_or(0),
            top: 0,
            plan: Arc::from([]),
        }
    }

    /// The picker with today's plan (see `plan`).
    pub fn with_plan(mut self, plan: Vec<usize>) -> Picker {
        self.plan = plan.into();
        self
    }

    /// The lesson after the open one in today's plan, and its place in
    /// the plan (1-based), when there is one that can be opened.
    pub fn next_in_plan(&self) -> Option<(usize, usize)> {
        let current = self.current?;
        let at = self.plan.iter().position(|&i| i == current)?;
        let next = *self.plan.get(at + 1)?;
        self.lessons
            .get(next)
            .is_some_and(|l| l.loaded().is_ok())
            .then_some((next, at + 2))
    }

    /// Every lesson ready to list (when the list opens: it shows each
    /// run's length and ending, or its error).
    pub fn prepare_all(&self) {
        for lesson in self.lessons.iter() {
            lesson.loaded();
        }
    }

    /// Highlight the lesson on screen (when the list opens).
    pub fn reset_cursor(&mut self) {
        self.cursor = self.current.unwrap_or(0);
    }

    /// Move the highlight by `delta` rows, stopping at both ends.
    pub fn move_by(&mut self, delta: i32) {
        let last = self.lessons.len().saturating_sub(1) as i64;
        self.cursor = (self.cursor as i64 + i64::from(delta)).clamp(0, last) as usize;
    }

    pub fn first(&mut self) {
        self.cursor = 0;
    }

    pub fn last(&mut self) {
        self.cursor = self.lessons.len().saturating_sub(1);
    }

    /// The first row to show in `rows` rows: the stored one, moved just
    /// enough to show the cursor, and never leaving empty rows at the end
    /// while earlier lessons are hidden.
    pub fn top_for(&self, rows: usize) -> usize {
        let rows = rows.max(1);
        let len = self.lessons.len();
        let top = self
            .top
            .clamp((self.cursor + 1).saturating_sub(rows), self.cursor);
        top.min(len.saturating_sub(rows))
    }

    /// Remember where the list was drawn from (see `top_for`).
    pub fn keep_in_view(&mut self, rows: usize) {
        self.top = self.top_for(rows);
    }
}

/// The lessons to offer: the catalogue in its order, then the scenario or
/// transcript the app was opened on (when not shipped), then the extra
/// scenario files (`--lesson FILE`) in the order given. The open one reuses
/// `open`, already prepared; a name or file listed twice is listed once.
/// Returns the list and the index of the open lesson.
pub fn gather(open: Source, loaded: Arc<Loaded>, extra: &[String]) -> (Vec<Lesson>, usize) {
    gather_shown_in(open, loaded, extra, Lang::DEFAULT)
}

/// `gather`, each lesson ready to be shown in `lang` (`load::shown_in`):
/// one that cannot be shows why in the list.
pub fn gather_shown_in(
    open: Source,
    loaded: Arc<Loaded>,
    extra: &[String],
    lang: Lang,
) -> (Vec<Lesson>, usize) {
    let mut sources: Vec<Source> = CATALOG
        .iter()
        .map(|(name, _)| Source::Shipped(name))
        .collect();
    let named: Vec<Source> = extra.iter().map(|e| source_of(e)).collect();
    for source in std::iter::once(&open).chain(&named) {
        if !sources.contains(source) {
            sources.push(source.clone());
        }
    }
    let current = sources.iter().position(|s| *s == open).unwrap_or(0);
    let lessons = sources
        .into_iter()
        .map(|source| match source {
            _ if source == open => Lesson::ready(source, Ok(loaded.clone())),
            // Today's plan is ready before the terminal is taken.
            Source::Shipped(name) if !named.contains(&source) => Lesson::shipped(name, lang),
            _ => {
                let loaded = prepare(&source, lang);
                Lesson::ready(source, loaded)
            }
        })
        .collect();
    (lessons, current)
}

/// How `--lesson` names a lesson: a shipped name, else a file.
fn source_of(name: &str) -> Source {
    match CATALOG.iter().find(|(n, _)| *n == name) {
        Some((name, _)) => Source::Shipped(name),
        None => Source::File(name.to_string()),
    }
}

/// Today's plan, when the command line names lessons (`--lesson`, in
/// order): the lesson opened first, then each one named, once each, as
/// indices into `lessons` (made by `gather`). Empty without `--lesson`.
pub fn plan(lessons: &[Lesson], open: &Source, extra: &[String]) -> Vec<usize> {
    if extra.is_empty() {
        return Vec::new();
    }
    let mut plan: Vec<usize> = Vec::new();
    let sources = std::iter::once(open.clone()).chain(extra.iter().map(|e| source_of(e)));
    for source in sources {
        if let Some(i) = lessons.iter().position(|l| l.source == source)
            && !plan.contains(&i)
        {
            plan.push(i);
        }
    }
    plan
}

/// The catalogue alone, every entry prepared (tests, and an app opened
/// without a command line).
pub fn catalog() -> Vec<Lesson> {
    CATALOG
        .iter()
        .map(|(name, _)| {
            let lesson = Lesson::shipped(name, Lang::DEFAULT);
            lesson.loaded();
            lesson
        })
        .collect()
}

fn prepare(source: &Source, lang: Lang) -> Result<Arc<Loaded>, String> {
    let loaded = match source {
        Source::Shipped(name) => load::load_shown_in(name, None, lang),
        Source::File(path) => load::load_shown_in(path, None, lang),
        // Only ever the open lesson, prepared with its own options
        // (--transcript-format, --redact); never read again here.
        Source::Transcript(path) => {
            return Err(format!(
                "{}: a transcript opens with --transcript FILE",
                crate::safe::escape(path)
            ));
        }
    };
    loaded.map(Arc::new).map_err(|e| e.to_string())
}

/// Today's lessons from a teacher's plan file (`--plan FILE`), in its
/// order: one lesson a line, a shipped name or a scenario file (a path
/// relative to the plan file), `#` to the end of a line a comment, blank
/// lines skipped. Err: what is wrong with the file, naming it.
pub fn read_plan(path: &std::path::Path) -> Result<Vec<String>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| {
        let why = e.to_string();
        let why = why
            .split(" (os error")
            .next()
            .unwrap_or_default()
            .to_string();
        format!("--plan {shown}: cannot read it: {why}")
    })?;
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    let lessons: Vec<String> = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty())
        .map(|line| match CATALOG.iter().any(|(name, _)| *name == line) {
            true => line.to_string(),
            false => dir.join(line).display().to_string(),
        })
        .collect();
    if lessons.is_empty() {
        return Err(format!(
            "--plan {shown}: no lessons in it (expected one a line: a shipped name, see \
             `agent-loop-sim list`, or a scenario file)"
        ));
    }
    Ok(lessons)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker(len: usize) -> Picker {
        let lessons: Vec<Lesson> = (0..len)
            .map(|i| Lesson::ready(Source::File(format!("f{i}.json")), Err("unused".into())))
            .collect();
        Picker::new(lessons, Some(0))
    }

    #[test]
    fn only_the_open_lesson_and_todays_plan_are_prepared_before_the_list_opens() {
        let open = load::load(load::DEFAULT_SCENARIO).unwrap();
        let named = CATALOG[CATALOG.len() - 1].0;
        let source = Source::Shipped(load::DEFAULT_SCENARIO);
        let (lessons, current) = gather(source.clone(), Arc::new(open), &[named.to_string()]);
        let picker = Picker::new(lessons, Some(current));
        fn prepared(p: &Picker) -> Vec<&Source> {
            let ready = p.lessons.iter().filter(|l| l.is_prepared());
            ready.map(|l| &l.source).collect()
        }
        assert_eq!(prepared(&picker), [&source, &Source::Shipped(named)]);
        picker.prepare_all();
        assert_eq!(prepared(&picker).len(), CATALOG.len());
        assert!(picker.lessons.iter().all(|l| l.loaded().is_ok()));
    }

    #[test]
    fn the_cursor_stays_in_the_list_and_in_view() {
        let mut p = picker(20);
        p.move_by(-1);
        assert_eq!(p.cursor, 0);
        for _ in 0..30 {
            p.move_by(1);
            p.keep_in_view(7);
            assert!((p.top..p.top + 7).contains(&p.cursor), "{p:?}");
        }
        assert_eq!((p.cursor, p.top), (19, 13));
        // Moving up leaves the window where it is until the cursor reaches its top.
        p.move_by(-3);
        p.keep_in_view(7);
        assert_eq!((p.cursor, p.top), (16, 13));
        p.move_by(-4);
        p.keep_in_view(7);
        assert_eq!((p.cursor, p.top), (12, 12));
        // A taller screen shows the end of the list without empty rows.
        assert_eq!(p.top_for(15), 5);
        assert_eq!(p.top_for(40), 0);
        p.first();
        assert_eq!(p.top_for(7), 0);
        p.last();
        assert_eq!(p.top_for(7), 13);
    }

    #[test]
    fn an_empty_list_does_not_move() {
        let mut p = picker(0);
        p.move_by(3);
        p.last();
        p.keep_in_view(5);
        assert_eq!((p.cursor, p.top), (0, 0));
    }
}
