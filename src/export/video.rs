//! A lesson as a video for slides: MP4 (H.264) or WebM (VP9), one still
//! picture per step, each shown `--dwell` seconds, the last one longer.
//! The pictures are the PNG's (`Fonts::pixmap` of the SVG figure); the
//! encoding is ffmpeg's, run as a program when it is installed: no
//! maintained pure-Rust library encodes H.264 or VP9, and ffmpeg's
//! encoders (libx264, libvpx) are the ones players are tested against.
//! With `-fflags +bitexact` and one thread the same frames give the same
//! bytes from the same ffmpeg build; another build may differ.

use std::io::{self, Read, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::error::ExportError;
use super::frame::framed;
use super::options::Options;
use super::options::{GIF_LAST_DWELLS as LAST_DWELLS, GIF_LAST_MIN_SECS as LAST_MIN_SECS};
use super::png::Fonts;
use super::{svg, write};
use crate::app::App;
use crate::cli::ExportFormat;
use crate::frames::Framing;

/// The two containers, each with the codec every browser plays in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// H.264 (libx264), the moov atom first so it plays while loading.
    Mp4,
    /// VP9 (libvpx-vp9).
    Webm,
}

impl Container {
    fn codec_args(self) -> &'static [&'static str] {
        match self {
            Container::Mp4 => &[
                "-c:v",
                "libx264",
                "-preset",
                "medium",
                "-tune",
                "stillimage",
                "-crf",
                "18",
                "-movflags",
                "+faststart",
                "-f",
                "mp4",
            ],
            Container::Webm => &[
                "-c:v",
                "libvpx-vp9",
                "-crf",
                "30",
                "-b:v",
                "0",
                "-deadline",
                "good",
                "-cpu-used",
                "4",
                "-f",
                "webm",
            ],
        }
    }

    /// The codec as said on stderr.
    pub fn said(self) -> &'static str {
        match self {
            Container::Mp4 => "H.264 (libx264) in MP4",
            Container::Webm => "VP9 (libvpx-vp9) in WebM",
        }
    }
}

/// The ffmpeg found, and its version line (said on stderr).
pub struct Ffmpeg {
    pub path: PathBuf,
    pub version: String,
}

/// ffmpeg from `FFMPEG` or the `PATH`; an error saying how to get it.
pub fn find() -> Result<Ffmpeg, String> {
    let path = std::env::var_os("FFMPEG")
        .map(PathBuf::from)
        .or_else(|| {
            let paths = std::env::var_os("PATH")?;
            std::env::split_paths(&paths)
                .map(|dir| dir.join("ffmpeg"))
                .find(|p| p.is_file())
        })
        .ok_or_else(|| {
            "a video is encoded by ffmpeg, which is not installed \
             (on Debian or Ubuntu: apt-get install ffmpeg; or set FFMPEG=/path/to/ffmpeg)"
                .to_string()
        })?;
    let out = Command::new(&path)
        .arg("-version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
    let version = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("ffmpeg version "))
        .and_then(|l| l.split_whitespace().next())
        .map(str::to_string)
        .ok_or_else(|| format!("{} -version does not say an ffmpeg version", path.display()))?;
    Ok(Ffmpeg { path, version })
}

/// How a video plays.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Seconds per step.
    pub dwell: f64,
    /// Times the last step is shown (`last_repeats`).
    pub last: usize,
}

/// How many dwell times the last step stays: at least `dwells` and at
/// least `min_secs` (as the GIF, rounded up to whole dwell times, since a
/// video of one frame rate shows each picture a whole number of frames).
pub fn last_repeats(dwell: f64, dwells: f64, min_secs: f64) -> usize {
    (dwells.max(min_secs / dwell) - 1e-9).ceil().max(1.0) as usize
}

/// Encode the steps into the file at `path` (replaced): each picture is
/// sent to ffmpeg as raw RGBA on its standard input, one frame per
/// dwell time.
#[allow(clippy::too_many_arguments)]
pub fn encode(
    ffmpeg: &Ffmpeg,
    container: Container,
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    fonts: &Fonts,
    scale: f32,
    timing: Timing,
    path: &Path,
) -> io::Result<()> {
    let picture = |index: usize| {
        fonts
            .pixmap(
                &svg::render(&framed(app, index, size, framing), app.theme),
                scale,
            )
            .map_err(io::Error::other)
    };
    let first = picture(*steps.start())?;
    let (w, h) = (first.width(), first.height());
    // Frames per second as a fraction of whole milliseconds: exact for
    // any dwell the command line takes (0.1 s steps and finer).
    let millis = (timing.dwell * 1000.0).round().max(1.0) as u64;
    let (r, g, b) = app.theme.page();
    let mut child = Command::new(&ffmpeg.path)
        .args(["-hide_banner", "-loglevel", "error", "-nostats"])
        .args(["-f", "rawvideo", "-pix_fmt", "rgba"])
        .args(["-s", &format!("{w}x{h}")])
        .args(["-framerate", &format!("1000/{millis}")])
        .args(["-i", "pipe:0"])
        // 4:2:0 needs even sides: a scale that gives odd ones gets a
        // line of the page colour. BT.709, as players assume for HD.
        .args([
            "-vf",
            &format!(
                "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=0x{r:02x}{g:02x}{b:02x},\
                 scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
            ),
        ])
        .args(["-colorspace", "bt709", "-color_primaries", "bt709"])
        .args(["-color_trc", "bt709", "-color_range", "tv"])
        .args(container.codec_args())
        .args([
            "-threads",
            "1",
            "-fflags",
            "+bitexact",
            "-flags:v",
            "+bitexact",
        ])
        .args(["-map_metadata", "-1", "-y"])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| io::Error::other(format!("cannot run {}: {e}", ffmpeg.path.display())))?;
    // Read ffmpeg's complaints as they come, so it never blocks on them.
    let mut stderr = child.stderr.take().expect("piped");
    let complaints = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut input = child.stdin.take().expect("piped");
    let last = *steps.end();
    let sent = (|| {
        for index in steps.clone() {
            let pixmap = if index == *steps.start() {
                first.clone()
            } else {
                picture(index)?
            };
            // Opaque figures: the premultiplied pixels are the plain ones.
            let times = if index == last { timing.last } else { 1 };
            for _ in 0..times {
                input.write_all(pixmap.data())?;
            }
        }
        input.flush()
    })();
    drop(input);
    let status = child.wait()?;
    let said = complaints.join().unwrap_or_default();
    if !status.success() {
        let said = said.trim();
        return Err(io::Error::other(format!(
            "ffmpeg {} stopped ({status}){}",
            ffmpeg.version,
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        )));
    }
    sent
}

/// `--format mp4|webm`: check the fonts of every step, find ffmpeg, say
/// which encodes, and write `dir/name`.
pub(super) fn export(
    app: &App,
    options: &Options,
    steps: RangeInclusive<usize>,
    fonts: &Fonts,
    dir: &write::Folder<'_>,
    name: &str,
) -> Result<PathBuf, ExportError> {
    let container = match options.format {
        ExportFormat::Webm => Container::Webm,
        _ => Container::Mp4,
    };
    // A missing font is said as such before ffmpeg starts.
    for index in steps.clone() {
        fonts
            .check(&framed(app, index, options.size, options.framing).buffer)
            .map_err(ExportError::Missing)?;
    }
    let ffmpeg = find().map_err(ExportError::Missing)?;
    eprintln!(
        "export: encoding {} with ffmpeg {} ({})",
        container.said(),
        ffmpeg.version,
        crate::safe::escape(&ffmpeg.path.display().to_string())
    );
    let timing = Timing {
        dwell: options.dwell,
        last: last_repeats(options.dwell, LAST_DWELLS, LAST_MIN_SECS),
    };
    dir.file_by(name, |path| {
        encode(
            &ffmpeg,
            container,
            app,
            steps,
            options.size,
            options.framing,
            fonts,
            options.scale,
            timing,
            path,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_step_stays_three_dwells_and_at_least_four_seconds() {
        assert_eq!(last_repeats(2.0, 3.0, 4.0), 3);
        assert_eq!(last_repeats(1.0, 3.0, 4.0), 4);
        assert_eq!(last_repeats(0.3, 3.0, 4.0), 14);
        assert_eq!(last_repeats(10.0, 3.0, 4.0), 3);
    }
}
