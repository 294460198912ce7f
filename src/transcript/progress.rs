//! How far a transcript has been read, for the simulator's loading screen
//! (issue 22: 10 s of nothing for a 500 MB file; issue 39: progress until
//! the first frame). The reader is not touched: a second handle on the
//! same open file shares its offset, and the screen asks it where the
//! reading is.

use std::fs::File;
use std::io::Seek;
use std::sync::{Arc, Mutex, PoisonError};

/// Where a load is: shared between the thread that loads and the screen
/// that shows it.
#[derive(Debug, Clone, Default)]
pub struct Watch(Arc<Mutex<Option<Reading>>>);

#[derive(Debug)]
struct Reading {
    /// A second handle on the file being read (the same offset).
    file: File,
    len: u64,
}

/// How far a load has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The file is not open yet.
    Starting,
    /// This many of so many bytes read.
    Reading { read: u64, len: u64 },
    /// All `len` bytes read; the steps are being put together.
    Building { len: u64 },
}

impl Watch {
    /// The load reads `file`, `len` bytes long.
    pub(super) fn reading(&self, file: &File, len: u64) {
        let shared = file.try_clone().ok().map(|file| Reading { file, len });
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = shared;
    }

    pub fn stage(&self) -> Stage {
        let mut reading = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(r) = reading.as_mut() else {
            return Stage::Starting;
        };
        match r.file.stream_position() {
            Ok(read) if read < r.len => Stage::Reading { read, len: r.len },
            _ => Stage::Building { len: r.len },
        }
    }
}
