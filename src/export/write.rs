//! Writing figures safely: each file is written under a temporary name in
//! its folder and renamed into place when complete. A reader (a notes
//! build, a browser) never sees half a figure; an existing figure is
//! replaced; and a symbolic link planted at a figure's name is replaced by
//! the figure, never followed to overwrite what it points at.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::ExportError;

pub fn create_dir(dir: &Path) -> Result<(), ExportError> {
    fs::create_dir_all(dir)
        .map_err(|e| ExportError::Io(format!("cannot create the folder {}: {e}", dir.display())))
}

/// Write `dir/name` with `contents`, atomically; its path when done.
pub fn file(
    dir: &Path,
    name: &str,
    contents: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<PathBuf, ExportError> {
    let path = dir.join(name);
    let error = |e: io::Error| ExportError::Io(format!("cannot write {}: {e}", path.display()));
    let (temp, file) = create_temp(dir, name).map_err(error)?;
    let result = (|| {
        let mut out = BufWriter::new(file);
        contents(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?;
        fs::rename(&temp, &path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&temp);
        return Err(error(e));
    }
    Ok(path)
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
