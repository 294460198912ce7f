//! Writing figures safely: each file is written under a temporary name in
//! its folder and renamed into place when complete. A reader (a notes
//! build, a browser) never sees half a figure; an existing figure is
//! replaced; and a symbolic link planted at a figure's name is replaced by
//! the figure, never followed to overwrite what it points at. An export
//! stopped by a signal (Ctrl-C, `kill`, a closed terminal) removes the file
//! it was writing before it exits: the `export` command asks for that
//! (`remove_on_signal`); a program that exports through the library keeps
//! its own signal handling.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use super::error::ExportError;

/// Create the folder, and remove from it what earlier exports left when
/// they were killed outright (`kill -9`, a power cut): no handler runs
/// then, and their temporary files would stay for good.
pub fn create_dir(dir: &Path) -> Result<(), ExportError> {
    // `--out` naming a file: say so, not "File exists".
    if dir.exists() && !dir.is_dir() {
        return Err(ExportError::Io(format!(
            "--out {} is a file; expected a folder to write the files into (made if missing)",
            dir.display()
        )));
    }
    fs::create_dir_all(dir).map_err(|e| {
        ExportError::Io(format!(
            "cannot create the folder {}: {}",
            dir.display(),
            crate::output::io_reason(&e)
        ))
    })?;
    for left in sweep(dir) {
        eprintln!(
            "export: removed {}, left by an export that was stopped before it finished",
            safe_path(&left)
        );
    }
    Ok(())
}

/// Remove the temporary files (`.NAME.PID.N.tmp`) in `dir` whose export is
/// no longer running; the names removed. A process of that number that
/// still runs keeps its files (it may be a second export into the folder).
fn sweep(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let ours = std::process::id();
    let writing = in_progress().clone();
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_pid) else {
            continue;
        };
        let path = entry.path();
        let stale = if pid == ours {
            !writing.contains(&path)
        } else {
            !running(pid)
        };
        // Only a plain file: a link or folder of that name is not ours.
        let plain = entry.file_type().is_ok_and(|t| t.is_file());
        if stale && plain && fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed.sort();
    removed
}

/// The process number in a temporary file's name, `.NAME.PID.N.tmp`.
fn temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, n) = rest.rsplit_once('.')?;
    let (stem, pid) = rest.rsplit_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (!stem.is_empty() && digits(n) && digits(pid))
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether process `pid` exists: `kill(pid, 0)` sends nothing, it only
/// looks the process up (a process of another user answers EPERM).
fn running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// The folder an export writes into, and the source its figures come
/// from. Each figure is marked with its source (the extended attribute
/// `MARK`), and a figure marked with another source is not replaced: two
/// files of one name in folders of one name (`p/a/x.json`, `q/a/x.json`)
/// give one figure name, and the second export says so instead of
/// replacing the first's figures. A file without the mark (written by
/// hand, by an older version, checked out by git, which keeps no
/// attributes, or on a file system without them) is replaced as before.
pub struct Folder<'a> {
    pub dir: &'a Path,
    /// The source as the mark records it (`name::identity`).
    pub source: String,
}

/// The extended attribute that names a figure's source.
const MARK: &str = "user.agent-loop-sim.source";

impl Folder<'_> {
    /// Write `name` with `contents`, atomically; its path when done.
    pub fn file(
        &self,
        name: &str,
        contents: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<PathBuf, ExportError> {
        let path = self.dir.join(name);
        self.in_place(name, |_, file| {
            let mut out = Measured {
                out: BufWriter::new(file),
                bytes: 0,
                path: &path,
            };
            let written = contents(&mut out).and_then(|()| {
                out.out.into_inner().map_err(|e| e.into_error())?;
                Ok(())
            });
            if out.bytes > LARGE {
                eprintln!("export: {} is {}", safe_path(&path), megabytes(out.bytes));
            }
            written
        })
    }

    /// Write `name` atomically through a program that writes a file of
    /// its own (ffmpeg): `make` gets the temporary file's path, to replace.
    pub fn file_by(
        &self,
        name: &str,
        make: impl FnOnce(&Path) -> io::Result<()>,
    ) -> Result<PathBuf, ExportError> {
        self.in_place(name, |temp, file| {
            drop(file);
            make(temp)
        })
    }

    /// Refuse a figure of another source at `name`; create the temporary
    /// file, let `write` fill it, mark it, and rename it to `name` (or
    /// remove it when `write` failed).
    fn in_place(
        &self,
        name: &str,
        write: impl FnOnce(&Path, File) -> io::Result<()>,
    ) -> Result<PathBuf, ExportError> {
        let path = self.dir.join(name);
        if let Some(other) = mark(&path).filter(|other| *other != self.source) {
            return Err(ExportError::Io(format!(
                "{} was exported from {}, not from {}; not replacing it: \
                 export each into its own --out (or remove the file)",
                safe_path(&path),
                crate::safe::escape(&other),
                crate::safe::escape(&self.source)
            )));
        }
        let error = |e: io::Error| ExportError::Io(format!("cannot write {}: {e}", path.display()));
        let (temp, file) = {
            let mut writing = in_progress();
            let (temp, file) = create_temp(self.dir, name).map_err(error)?;
            writing.push(temp.clone());
            (temp, file)
        };
        // A file system without user attributes keeps no mark: the
        // figure is still written.
        let written = write(&temp, file).map(|()| {
            let _ = rustix::fs::setxattr(
                &temp,
                MARK,
                self.source.as_bytes(),
                rustix::fs::XattrFlags::empty(),
            );
        });
        // Renamed (or removed) and forgotten at once: a signal sees the
        // temporary file either still there, or gone for good.
        let result = {
            let mut writing = in_progress();
            writing.retain(|t| *t != temp);
            let result = written.and_then(|()| fs::rename(&temp, &path));
            if result.is_err() {
                let _ = fs::remove_file(&temp);
            }
            result
        };
        result.map_err(error)?;
        Ok(path)
    }
}

/// The source marked on the file at `path`, if any (a symbolic link is
/// not followed: it has no mark of ours).
fn mark(path: &Path) -> Option<String> {
    let mut value = vec![0u8; 4096];
    let n = rustix::fs::lgetxattr(path, MARK, &mut value[..]).ok()?;
    value.truncate(n);
    String::from_utf8(value).ok()
}

/// A file larger than this is said on stderr when it passes the size (a
/// long run's HTML or cast can reach gigabytes), and again when done.
const LARGE: u64 = 100_000_000;

/// A writer that counts what it has written, and says once that the
/// file has grown past `LARGE`.
struct Measured<'a, W> {
    out: W,
    bytes: u64,
    path: &'a Path,
}

impl<W: Write> Write for Measured<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        let before = self.bytes;
        self.bytes += n as u64;
        if before <= LARGE && self.bytes > LARGE {
            eprintln!(
                "export: {} has passed {} and is still being written; \
                 a part of the run (--steps A-B) makes a smaller file",
                safe_path(self.path),
                megabytes(LARGE)
            );
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.0} MB", bytes as f64 / 1e6)
}

fn safe_path(path: &Path) -> String {
    crate::safe::escape(&path.display().to_string()).into_owned()
}

/// The temporary files being written now.
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_progress() -> MutexGuard<'static, Vec<PathBuf>> {
    IN_PROGRESS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Signals that end an export (those a terminal or `kill` sends).
const STOPPING: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// On a stopping signal: remove the temporary files being written, then
/// exit as the signal would have (128 + N). Process-wide, so installed
/// only by the binary's `export` command, once, before it writes.
pub(super) fn remove_on_signal() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new(STOPPING) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the exit: no file is created or renamed after.
                let writing = in_progress();
                for temp in writing.iter() {
                    let _ = fs::remove_file(temp);
                }
                std::process::exit(128 + signal);
            }
        });
    });
}

/// A new file `.name.PID.N.tmp` next to the target. `create_new` refuses
/// an existing name, a symbolic link included, so nothing is followed.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut n = 0u32;
    loop {
        let temp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_killed_export_left_is_removed_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("als-sweep-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let ours = std::process::id();
        // No process has a number this large (Linux's highest is 2^22).
        let gone = format!(".x.zh.html.{}.0.tmp", 1u32 << 30);
        let own = format!(".x.zh.svg.{ours}.3.tmp");
        // Process 1 always runs: its file may be an export under way.
        let alive = ".x.zh.cast.1.0.tmp".to_string();
        let others = [alive.as_str(), ".notes.tmp", "x.zh.1.0.tmp", ".x.abc.0.tmp"];
        for name in [gone.as_str(), own.as_str()].iter().chain(&others) {
            fs::write(dir.join(name), "half a figure").unwrap();
        }
        let removed = sweep(&dir);
        assert_eq!(removed, [dir.join(&gone), dir.join(&own)]);
        for name in others {
            assert!(dir.join(name).exists(), "{name} kept");
        }
        assert_eq!(temp_pid(".a.b.c.12.3.tmp"), Some(12));
        assert_eq!(temp_pid(".12.3.tmp"), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
