//! How far a big transcript has been read, on stderr, while the simulator
//! still has a blank screen to show (issue 22: 10 s of nothing for a
//! 500 MB file). The reader is not touched: a second handle on the same
//! open file shares its offset, and a thread asks it where the reading is.

use std::fs::File;
use std::io::{IsTerminal, Seek, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::i18n;
use crate::scenario::Lang;

/// Files smaller than this load in well under a second: no line.
const SHOWN_FROM: u64 = 32 << 20;
/// How often the line is written again.
const EVERY: Duration = Duration::from_millis(100);

/// The progress line while it is shown; erased when dropped.
pub(super) struct Progress {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Start saying how far `file` (`len` bytes, named `path`) has been
    /// read, if it is big and stderr is a terminal.
    pub(super) fn start(file: &File, len: u64, path: &str, lang: Lang) -> Option<Progress> {
        if len < SHOWN_FROM || !std::io::stderr().is_terminal() {
            return None;
        }
        let mut shared = file.try_clone().ok()?;
        let name = std::path::Path::new(path)
            .file_name()
            .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
        let name = crate::safe::escape(&name).into_owned();
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let mb = |bytes: u64| bytes.div_ceil(1 << 20);
            loop {
                match stopped.recv_timeout(EVERY) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                let Ok(read) = shared.stream_position() else {
                    return;
                };
                let line = if read >= len {
                    i18n::LOADING_BUILDING.fill(lang, &[("file", &name), ("total", &mb(len))])
                } else {
                    i18n::LOADING_TRANSCRIPT.fill(
                        lang,
                        &[
                            ("file", &name),
                            ("read", &(read >> 20)),
                            ("total", &mb(len)),
                            ("percent", &(read * 100 / len)),
                        ],
                    )
                };
                // Back to the line's start, the text, the rest of the line cleared.
                let _ = write!(std::io::stderr(), "\r{line}\x1b[K");
            }
        });
        Some(Progress {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
}
