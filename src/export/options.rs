//! What an export is asked for: the options of `export`, and their defaults.

use std::path::PathBuf;

use crate::app::Panel;
use crate::cli::{Cli, Command, ExportFormat, LowerArg, PanelArg, ThemeArg};
use crate::frames::Framing;
use crate::load::DEFAULT_SCENARIO;
use crate::scenario::Lang;
use crate::theme::Theme;

/// Seconds each step stays on screen in an asciicast or an HTML player,
/// unless `--dwell`.
pub const DWELL_DEFAULT_SECS: f64 = 2.0;
/// PNG pixels per SVG pixel, unless `--scale`: 120 columns give 2,440 px.
pub const SCALE_DEFAULT: f32 = 2.0;
/// GIF pixels per SVG pixel, unless `--scale`: 1,220 px for 120 columns,
/// a slide's width, and a quarter of the pixels to quantise.
pub const GIF_SCALE_DEFAULT: f32 = 1.0;

/// Whether `format` writes one file of all the chosen steps.
pub fn one_file(format: ExportFormat) -> bool {
    use ExportFormat::*;
    matches!(format, Cast | Html | Gif | Pdf | Mp4 | Webm | Slides)
}

/// Whether `format` shows its steps one after another (so no `--strip`
/// or `--compare`).
pub fn in_sequence(format: ExportFormat) -> bool {
    use ExportFormat::*;
    matches!(format, Cast | Html | Gif | Mp4 | Webm | Slides)
}

/// Whether `--dwell` times `format`.
pub fn timed(format: ExportFormat) -> bool {
    use ExportFormat::*;
    matches!(format, Cast | Html | Gif | Mp4 | Webm)
}

/// The scale when `--scale` is not given.
pub fn scale_default(format: ExportFormat) -> f32 {
    match format {
        ExportFormat::Gif => GIF_SCALE_DEFAULT,
        _ => SCALE_DEFAULT,
    }
}

/// What to export, as the command line asked for it.
#[derive(Debug, Clone)]
pub struct Options {
    /// A shipped scenario's name or a scenario file.
    pub scenario: String,
    /// A transcript file, a forced format and `--redact`, to export instead.
    pub transcript: Option<(String, Option<crate::transcript::Format>, bool)>,
    pub format: ExportFormat,
    pub out: PathBuf,
    pub size: (u16, u16),
    /// 1-based, inclusive; all steps when None.
    pub steps: Option<(usize, usize)>,
    pub lang: Lang,
    pub theme: Theme,
    /// Seconds per step in an asciicast, and the HTML player's first dwell.
    pub dwell: f64,
    /// `--bare` and `--panel`.
    pub framing: Framing,
    /// `--strip`: the chosen steps side by side in one figure.
    pub strip: bool,
    /// PNG pixels per SVG pixel.
    pub scale: f32,
    /// `--embed-fonts`: subsets of the fonts used inside the SVG or HTML.
    pub embed_fonts: bool,
    /// `--compare NAME|FILE`: the frames of the two runs side by side.
    pub compare: Option<String>,
    /// `--quiz`: the quiz as a handout (txt or html) instead of frames.
    pub quiz: bool,
    /// `--player-only`: an HTML player without heading, about or glossary.
    pub player_only: bool,
    /// `--provider`: the API whose requests the lesson is shown as.
    pub provider: Option<crate::wire::Provider>,
    /// `--panel wire`: the context panel as the request's JSON body.
    pub wire: bool,
    /// `--quiz-steps`: ask only before these steps (the lesson's own
    /// choice otherwise).
    pub quiz_steps: Option<Vec<String>>,
}

impl Options {
    /// Options for `format` into `out` with every other setting at its
    /// command-line default.
    pub fn new(format: ExportFormat, out: PathBuf) -> Options {
        Options {
            scenario: DEFAULT_SCENARIO.to_string(),
            transcript: None,
            format,
            out,
            size: (120, 40),
            steps: None,
            lang: Lang::Zh,
            theme: Theme::DARK,
            dwell: DWELL_DEFAULT_SECS,
            framing: Framing::default(),
            strip: false,
            scale: SCALE_DEFAULT,
            embed_fonts: false,
            compare: None,
            quiz: false,
            player_only: false,
            provider: None,
            wire: false,
            quiz_steps: None,
        }
    }

    /// The options of an `export` command line; None for any other command.
    pub fn from_cli(cli: &Cli) -> Option<Options> {
        let Some(Command::Export {
            format,
            out,
            size,
            steps,
            dwell,
            bare,
            keys,
            panel,
            lower,
            strip,
            scale,
            embed_fonts,
            player_only,
        }) = &cli.command
        else {
            return None;
        };
        Some(Options {
            scenario: cli
                .scenario
                .clone()
                .unwrap_or_else(|| DEFAULT_SCENARIO.to_string()),
            transcript: cli
                .transcript
                .clone()
                .map(|t| (t, cli.transcript_format, cli.redact)),
            format: *format,
            out: out.clone(),
            size: *size,
            steps: *steps,
            lang: cli.lang,
            // A quiz handout in PDF is printed: light unless asked.
            theme: theme_for(cli.theme.unwrap_or(match (format, cli.quiz) {
                (ExportFormat::Pdf, true) => ThemeArg::Light,
                _ => ThemeArg::Dark,
            })),
            dwell: *dwell,
            framing: Framing {
                bare: *bare,
                keys: *keys,
                panel: panel.map(|p| match p {
                    PanelArg::Lanes => Panel::Lanes,
                    PanelArg::Context | PanelArg::Wire => Panel::Context,
                    PanelArg::Pairing => Panel::Pairing,
                    PanelArg::Explanation => Panel::Explain,
                }),
                lower: lower.map(|p| match p {
                    LowerArg::Context => Panel::Context,
                    LowerArg::Pairing => Panel::Pairing,
                    LowerArg::Explanation => Panel::Explain,
                }),
            },
            strip: *strip,
            scale: scale.unwrap_or(scale_default(*format)),
            embed_fonts: *embed_fonts,
            compare: cli.compare.clone(),
            quiz: cli.quiz,
            player_only: *player_only,
            provider: cli.provider,
            wire: matches!(panel, Some(PanelArg::Wire)),
            quiz_steps: cli.quiz_steps.clone(),
        })
    }
}

/// `--theme` for figures. Unlike the terminal, export ignores `NO_COLOR`
/// (see the module comment).
pub fn theme_for(arg: ThemeArg) -> Theme {
    match arg {
        ThemeArg::Dark => Theme::DARK,
        ThemeArg::Light => Theme::LIGHT,
    }
}

/// The last step of a GIF stays this many dwell times, at least
/// `GIF_LAST_MIN_SECS`, before it starts again.
pub const GIF_LAST_DWELLS: f64 = 3.0;
pub const GIF_LAST_MIN_SECS: f64 = 4.0;

/// The frames of a player are bare.
pub fn html_framing(framing: Framing) -> Framing {
    Framing {
        bare: true,
        ..framing
    }
}
