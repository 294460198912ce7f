//! One name per figure. A file's name says where the run came from (a
//! shipped lesson's name, or a file's folder and name), its language, and
//! every setting that changes its bytes and is not at its default, so two
//! exports into one folder never write one name for two different figures.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use crate::app::Panel;
use crate::cli::ExportFormat;
use crate::load::CATALOG;
use crate::theme::Theme;
use crate::view::{WIDE_HEIGHT, WIDE_WIDTH};

use super::options::{DWELL_DEFAULT_SECS, Options, scale_default, timed};
use crate::safe::file_part as slug;

/// Where the run comes from, as the first part of every name: a shipped
/// lesson by its name (`read-config-timeout`); a scenario or transcript
/// file by its folder and its name without the extension
/// (`lessons.read-config`), so `a/x.json` and `b/x.json`, or two files
/// whose `"name"` is the same, write different figures; a run of a file of
/// many (`FILE#3`) adds `.run-3`; two runs compared are `MAIN.vs.OTHER`.
pub fn source(options: &Options) -> String {
    let main = match &options.transcript {
        Some((file, _, _)) => of_file(file),
        None => of_scenario(&options.scenario),
    };
    match &options.compare {
        Some(other) => format!("{main}.vs.{}", of_scenario(other)),
        None => main,
    }
}

/// The source as a figure's mark records it (`write::Folder`): a shipped
/// lesson's name, or a file's path from the `--out` folder (both
/// resolved), so that figures and sources moved together keep their
/// marks; `FILE#N` keeps its `#N`; a comparison is `MAIN vs OTHER`.
pub fn identity(options: &Options) -> String {
    let main = match &options.transcript {
        Some((file, _, _)) => file_identity(file, &options.out),
        None => scenario_identity(&options.scenario, &options.out),
    };
    match &options.compare {
        Some(other) => format!("{main} vs {}", scenario_identity(other, &options.out)),
        None => main,
    }
}

fn scenario_identity(name_or_path: &str, out: &Path) -> String {
    if CATALOG.iter().any(|(name, _)| *name == name_or_path) {
        return format!("the lesson {name_or_path}");
    }
    file_identity(name_or_path, out)
}

fn file_identity(given: &str, out: &Path) -> String {
    let (path, run) = split_run(given);
    let whole = Path::new(path)
        .canonicalize()
        .unwrap_or_else(|_| PathBuf::from(path));
    let out = out.canonicalize().unwrap_or_else(|_| out.to_path_buf());
    let mut shown = relative(&whole, &out).display().to_string();
    if let Some(n) = run {
        shown.push_str(&format!("#{n}"));
    }
    shown
}

/// `path` from `base`, both absolute: `../lessons/x.json`.
fn relative(path: &Path, base: &Path) -> PathBuf {
    let (path_parts, base_parts): (Vec<_>, Vec<_>) =
        (path.components().collect(), base.components().collect());
    let common = path_parts
        .iter()
        .zip(&base_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in common..base_parts.len() {
        out.push("..");
    }
    for part in &path_parts[common..] {
        out.push(part);
    }
    out
}

/// `FILE#N` as the file and run N, where `FILE#N` is not itself a file
/// (as the transcript reader reads it).
fn split_run(given: &str) -> (&str, Option<usize>) {
    match given.rsplit_once('#') {
        Some((file, n)) if !Path::new(given).exists() && Path::new(file).is_file() => {
            (file, n.parse::<usize>().ok())
        }
        _ => (given, None),
    }
}

fn of_scenario(name_or_path: &str) -> String {
    if CATALOG.iter().any(|(name, _)| *name == name_or_path) {
        return name_or_path.to_string();
    }
    of_file(name_or_path)
}

/// `FOLDER.STEM`, each part made safe (`slug`); `.run-N` for `FILE#N`
/// where `FILE#N` is not itself a file (as the transcript reader reads it).
fn of_file(given: &str) -> String {
    let (path, run) = split_run(given);
    let path = Path::new(path);
    let whole = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let stem = whole
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = whole
        .parent()
        .and_then(Path::file_name)
        .map(|s| s.to_string_lossy().into_owned());
    let mut out = match folder {
        Some(folder) => format!("{}.{}", slug(&folder), slug(&stem)),
        None => slug(&stem),
    };
    if let Some(n) = run {
        out.push_str(&format!(".run-{n}"));
    }
    out
}

/// What sets a figure apart from the one at the default settings, as the
/// part of its name after the language: `.anthropic` for `--provider`,
/// `.redacted` for `--redact`, then `.light.80x24.bare.context` for a
/// light, 80x24, bare figure of the context panel; then `.x1.5` for a PNG
/// scale, `.3s` for a dwell time, `.fonts` for embedded fonts (and `.strip`
/// for a PDF of strips, after the panel). Each setting that changes the
/// file and is not at its default is named, so two exports into one
/// folder never write the same name for different figures. A setting the
/// format does not draw is left out (no theme in plain text, no `bare` or
/// `keys` in the HTML player, whose frames are always bare; only provider
/// and redaction for the request bodies).
pub fn variant(options: &Options) -> String {
    let format = options.format;
    let mut out = run_settings(options);
    if format == ExportFormat::Requests {
        return out;
    }
    if format != ExportFormat::Txt && options.theme != Theme::DARK {
        out.push_str(".light");
    }
    let (w, h) = options.size;
    if (w, h) != (120, 40) {
        out.push_str(&format!(".{w}x{h}"));
    }
    if !matches!(format, ExportFormat::Html | ExportFormat::Slides) {
        if options.framing.bare {
            out.push_str(".bare");
        } else if options.framing.keys {
            out.push_str(".keys");
        }
    }
    if let Some(panel) = options.framing.panel {
        out.push('.');
        out.push_str(if options.wire {
            "wire"
        } else {
            panel_name(panel)
        });
    }
    // Where only one panel fits under the lanes, the one chosen for all.
    if let Some(panel) = options.framing.lower
        && (w < WIDE_WIDTH || h < WIDE_HEIGHT)
    {
        out.push_str(".lower-");
        out.push_str(panel_name(panel));
    }
    // The other formats name a strip by its steps, a file each.
    if format == ExportFormat::Pdf && options.strip {
        out.push_str(".strip");
    }
    if format.drawn_as_pixels() && options.scale != scale_default(format) {
        out.push_str(&format!(".x{}", options.scale));
    }
    if timed(format) && options.dwell != DWELL_DEFAULT_SECS {
        out.push_str(&format!(".{}s", options.dwell));
    }
    if options.embed_fonts {
        out.push_str(".fonts");
    }
    if options.player_only {
        out.push_str(".player");
    }
    out
}

/// `.steps-03-05` (or `.step-07`) when `steps` are not all `total` steps,
/// else nothing: a file of several steps says which it holds.
pub fn steps_tag(total: usize, steps: &RangeInclusive<usize>) -> String {
    let (first, last) = (*steps.start(), *steps.end());
    if (first, last) == (0, total - 1) {
        return String::new();
    }
    one_or_range(total, first, last)
}

/// `.step-07` or `.steps-03-05`.
pub fn one_or_range(total: usize, first: usize, last: usize) -> String {
    let (a, b) = (step_number(first, total), step_number(last, total));
    if first == last {
        format!(".step-{a}")
    } else {
        format!(".steps-{a}-{b}")
    }
}

/// A panel as `--panel` names it.
fn panel_name(panel: Panel) -> &'static str {
    match panel {
        Panel::Lanes => "lanes",
        Panel::Context => "context",
        Panel::Pairing => "pairing",
        Panel::Explain => "explanation",
    }
}

/// Step `index + 1`, zero-padded to the width of `total` (at least 2).
pub fn step_number(index: usize, total: usize) -> String {
    let digits = total.to_string().len().max(2);
    format!("{:0digits$}", index + 1)
}

/// What the run is told as: `.anthropic` for `--provider` (a lesson's),
/// `.redacted` for `--redact` (a transcript's).
pub fn run_settings(options: &Options) -> String {
    let mut out = String::new();
    if let Some(provider) = options.provider
        && options.transcript.is_none()
    {
        out.push('.');
        out.push_str(provider.code());
    }
    if matches!(options.transcript, Some((_, _, true))) {
        out.push_str(".redacted");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_is_named_from_the_out_folder() {
        let r = |p: &str, b: &str| relative(Path::new(p), Path::new(b));
        assert_eq!(r("/n/p/a/x.json", "/n/figures"), Path::new("../p/a/x.json"));
        assert_eq!(r("/n/figures/x.json", "/n/figures"), Path::new("x.json"));
        assert_eq!(r("/x.json", "/n/f"), Path::new("../../x.json"));
    }

    #[test]
    fn step_numbers_sort_in_step_order() {
        assert_eq!(step_number(2, 8), "03");
        assert_eq!(step_number(9, 12), "10");
        assert_eq!(step_number(2, 120), "003");
        assert_eq!(step_number(119, 120), "120");
        let names: Vec<String> = (0..120).map(|i| step_number(i, 120)).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}
