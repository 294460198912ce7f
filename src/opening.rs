//! What the simulator opens, from the command line: the lesson or the
//! transcript, the lessons for the picker, a comparison, the other
//! conversations of a tap recording. No terminal here: `tui` shows it,
//! and for a transcript shows a loading screen while this runs.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use crate::app::{self, Action, App};
use crate::cli::{Cli, ThemeArg};
use crate::load::{self, DEFAULT_SCENARIO};
use crate::output::EXIT_BAD_INPUT;
use crate::picker::{self, Picker, Source};
use crate::safe;
use crate::theme::Theme;

/// A prepared app and the warnings to print, or a message and an exit code.
pub type Prepared = Result<(App, Vec<String>), (String, ExitCode)>;

/// The app for the command line's lesson or transcript, with its
/// lessons, comparison and other conversations; Err with the message and
/// the exit code.
pub fn prepare(cli: &Cli, watch: Option<&crate::transcript::Watch>) -> Prepared {
    let bad = |e: &dyn std::fmt::Display| (e.to_string(), ExitCode::from(EXIT_BAD_INPUT));
    // Today's plan (`--lesson`, in order) starts with its first lesson.
    let name = cli
        .scenario
        .as_deref()
        .or(cli.lessons.first().map(String::as_str))
        .unwrap_or(DEFAULT_SCENARIO);
    let loaded = match &cli.transcript {
        Some(file) => crate::transcript::open_all(file, cli.transcript_format, cli.redact, watch),
        None => load::load_as(name, cli.provider)
            .map_err(|e| crate::transcript::given_as_scenario(name).unwrap_or(e))
            .and_then(|l| load::quiz_steps_from(l, cli.quiz_steps.as_deref()))
            .map(|l| (l, Vec::new(), Vec::new())),
    };
    // A tap recording of several conversations: the others, for `s`.
    let (loaded, others, warnings) = loaded.map_err(|e| bad(&e))?;
    let loaded = load::shown_in(loaded, cli.lang).map_err(|e| bad(&e))?;
    // How the command line named the open lesson, for the picker (`o`).
    let open = match &cli.transcript {
        Some(file) => Source::Transcript(file.clone()),
        None => match load::CATALOG.iter().find(|(n, _)| *n == name) {
            Some((shipped, _)) => Source::Shipped(shipped),
            None => Source::File(name.to_string()),
        },
    };
    let other = cli
        .compare
        .as_deref()
        .map(|other| crate::compare::load_other(other, cli.provider, cli.lang))
        .transpose()
        .map_err(|e| bad(&e))?;
    let name = match &cli.transcript {
        Some(file) => format!("--transcript {file}"),
        None => name.to_string(),
    };
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err((
            format!(
                "agent-loop-sim: the interactive simulator needs a terminal, and this is not one.\n\
                 For scripts and files, use `agent-loop-sim export --format txt --out DIR` \
                 or `agent-loop-sim trace {}`.",
                safe::escape(&name)
            ),
            ExitCode::FAILURE,
        ));
    }
    let app = App::new(
        loaded,
        cli.lang,
        theme_for(cli.theme.unwrap_or(ThemeArg::Dark)),
    );
    let (lessons, current) =
        picker::gather_shown_in(open.clone(), app.loaded.clone(), &cli.lessons, cli.lang);
    let plan = picker::plan(&lessons, &open, &cli.lessons);
    let mut app = app.with_lessons(Picker::new(lessons, Some(current)).with_plan(plan));
    // Self-study: each lesson opens where it was left. Not in a class: the
    // room starts at step 1 and asks every question, wherever a teacher's
    // rehearsal stopped, and the class is no one's own study.
    let mut warnings = warnings;
    if !cli.class
        && let Some(path) = crate::study::path(None)
    {
        let (kept, note) = crate::study::open(path, &app.picker.lessons);
        warnings.extend(note);
        app = app.with_study(kept);
    }
    // The room answers the quiz's questions: --class asks them.
    if cli.quiz || cli.class {
        app::update(&mut app, Action::ToggleQuiz);
    }
    if let Some(other) = other {
        app = app.with_comparison(other);
    }
    if !others.is_empty() {
        let mut conversations = vec![app.loaded.clone()];
        conversations.extend(others.into_iter().map(std::sync::Arc::new));
        app.live = Some(crate::live::Live::recorded(conversations));
    }
    Ok((app, warnings))
}

/// `--theme`, and `NO_COLOR` (https://no-color.org) wins over both.
pub fn theme_for(arg: ThemeArg) -> Theme {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    match (no_color, arg) {
        (true, _) => Theme::PLAIN,
        (false, ThemeArg::Dark) => Theme::DARK,
        (false, ThemeArg::Light) => Theme::LIGHT,
    }
}
