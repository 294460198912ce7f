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
    })
}

/// Write `dir/name` with `contents`, atomically; its path when done.
pub fn file(
    dir: &Path,
    name: &str,
    contents: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<PathBuf, ExportError> {
    let path = dir.join(name);
    let error = |e: io::Error| ExportError::Io(format!("cannot write {}: {e}", path.display()));
    let (temp, file) = {
        let mut writing = in_progress();
        let (temp, file) = create_temp(dir, name).map_err(error)?;
        writing.push(temp.clone());
        (temp, file)
    };
    let written = (|| {
        let mut out = BufWriter::new(file);
        contents(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    })();
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
