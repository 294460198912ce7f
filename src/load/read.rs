//! Reading a scenario file: plain files only, and never more than
//! `MAX_FILE_BYTES`.

use std::io::Read;
use std::path::Path;

use crate::output::io_reason;

/// Scenario files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            "no such file, and no shipped scenario by that name (see `agent-loop-sim list`)"
                .to_string()
        }
        _ => format!("cannot read: {}", io_reason(&e)),
    })?;
    if meta.is_dir() {
        return Err("is a directory; expected a scenario JSON file".to_string());
    }
    // A pipe or a device could block or never end: only plain files.
    if !meta.is_file() {
        return Err("is not a regular file; expected a scenario JSON file".to_string());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

pub(super) fn too_large() -> String {
    format!(
        "the file is larger than {} KiB; expected a scenario, which is a small JSON file",
        MAX_FILE_BYTES / 1024
    )
}
