//! `export --format mp4|webm`: a lesson as a video for slides, encoded by
//! ffmpeg (Debian `ffmpeg`, which `.ci/run` installs) and read back with
//! ffprobe: the codec, the size of the PNG figure, one frame per step and
//! the last step's three, the length the dwell time gives, the same bytes
//! on a second export, and each step's picture the PNG's. Where ffmpeg is
//! missing the export says how to get it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("video-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Whether ffmpeg and ffprobe run; says so when not.
fn tools(test: &str) -> bool {
    for tool in ["ffmpeg", "ffprobe"] {
        if Command::new(tool).arg("-version").output().is_err() {
            common::missing_tool(test, &format!("{tool} cannot run (apt-get install ffmpeg)"));
            return false;
        }
    }
    true
}

/// Export `format` of the default lesson into `out`; the file written.
fn export(out: &Path, args: &[&str]) -> (PathBuf, String) {
    let mut all = vec!["export", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = common::run(&all);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stdout);
    (PathBuf::from(lines[0]), run.stderr)
}

/// ffprobe's answer for the video stream: codec, width, height, frames
/// (counted by decoding), and the container's duration in seconds.
fn probe(file: &Path) -> (String, u32, u32, u32, f64) {
    let out = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args([
            "-show_entries",
            "stream=codec_name,width,height,nb_read_frames",
        ])
        .args(["-show_entries", "format=duration", "-of", "json"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["streams"][0];
    let n = |x: &serde_json::Value| x.as_u64().unwrap() as u32;
    (
        s["codec_name"].as_str().unwrap().to_string(),
        n(&s["width"]),
        n(&s["height"]),
        s["nb_read_frames"].as_str().unwrap().parse().unwrap(),
        v["format"]["duration"].as_str().unwrap().parse().unwrap(),
    )
}

/// A picture as raw RGB through ffmpeg: frame `n` (0-based) of a video,
/// or a PNG.
fn rgb(file: &Path, n: u32) -> Vec<u8> {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(file)
        .args(["-vf", &format!("select=eq(n\\,{n})"), "-frames:v", "1"])
        .args(["-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The mean difference of two pictures of one size, per channel (0-255).
fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len(), "pictures of one size");
    let sum: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.len() as f64
}

#[test]
fn a_lesson_becomes_an_mp4_and_a_webm_of_its_png_figures() {
    let test = "a_lesson_becomes_an_mp4_and_a_webm_of_its_png_figures";
    if !tools(test) {
        return;
    }
    let dir = scratch("formats");
    let (mp4, said) = export(&dir, &["--format", "mp4"]);
    assert_eq!(mp4, dir.join("read-config-timeout.zh.mp4"));
    assert!(
        said.contains("encoding H.264 (libx264) in MP4 with ffmpeg "),
        "{said}"
    );
    // 8 steps of 2 s, the last one three times as long: 7 + 3 frames, 20 s.
    let (codec, w, h, frames, secs) = probe(&mp4);
    assert_eq!((codec.as_str(), w, h, frames), ("h264", 2440, 1640, 10));
    assert!((secs - 20.0).abs() < 0.05, "{secs} s");

    // Step 3's picture is the PNG of step 3 (up to the encoder's loss),
    // and not that of its neighbours.
    let (png, _) = export(&dir, &["--format", "png", "--steps", "3"]);
    let still = rgb(&png, 0);
    let near = mean_difference(&rgb(&mp4, 2), &still);
    let other = mean_difference(&rgb(&mp4, 3), &still);
    assert!(near < 2.0, "step 3 differs from its PNG by {near}");
    assert!(
        other > 2.0 * near,
        "step 4 is as close as step 3: {other} vs {near}"
    );

    // WebM, in English at 3 s a step and half the pixels.
    let (webm, said) = export(
        &dir,
        &[
            "--format", "webm", "--lang", "en", "--dwell", "3", "--scale", "1",
        ],
    );
    assert_eq!(webm, dir.join("read-config-timeout.en.x1.3s.webm"));
    assert!(said.contains("VP9 (libvpx-vp9) in WebM"), "{said}");
    let (codec, w, h, frames, secs) = probe(&webm);
    assert_eq!((codec.as_str(), w, h, frames), ("vp9", 1220, 820, 10));
    assert!((secs - 30.0).abs() < 0.05, "{secs} s");

    // The same bytes again, from the same ffmpeg.
    let again = scratch("again");
    for (first, args) in [
        (&mp4, vec!["--format", "mp4"]),
        (
            &webm,
            vec![
                "--format", "webm", "--lang", "en", "--dwell", "3", "--scale", "1",
            ],
        ),
    ] {
        let (second, _) = export(&again, &args);
        assert!(
            std::fs::read(first).unwrap() == std::fs::read(&second).unwrap(),
            "{} differs on a second export",
            second.display()
        );
    }
}

#[test]
fn without_ffmpeg_a_video_export_says_how_to_get_it() {
    let dir = scratch("missing");
    let empty = scratch("no-tools");
    std::fs::create_dir_all(&empty).unwrap();
    let mut cmd = common::command(&["export", "--format", "webm", "--steps", "1-2", "--out"]);
    cmd.arg(&dir).env("PATH", &empty).env_remove("FFMPEG");
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("apt-get install ffmpeg"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "nothing written: {left:?}");
}
