//! The words of a streamed reply's steps (`wire::stream`): each piece's
//! title, its arrow beside the lanes, and its plain explanation.

use super::catalogue::*;
use super::label::Label;
use super::label::one_line;
use crate::scenario::Lang;
use crate::trace::Trace;
use crate::wire::stream::{Block, Piece, Stop, piece_at};

/// Why the model stopped, in words.
fn stop_words(stop: Stop, lang: Lang) -> &'static str {
    match stop {
        Stop::ToolUse => STOP_TOOL_USE,
        Stop::EndTurn => STOP_END_TURN,
        Stop::Limit => STOP_LIMIT,
    }
    .get(lang)
}

/// The title of stream step `index`.
pub(super) fn title(trace: &Trace, index: usize) -> String {
    let lang = trace.lang;
    let Some((number, piece)) = piece_at(trace, index) else {
        return String::new();
    };
    match piece {
        Piece::Opens {
            block: Block::Text(_),
            delta,
        } => {
            TITLE_STREAM_TEXT_OPENS.fill(lang, &[("number", &number), ("delta", &one_line(&delta))])
        }
        Piece::Closes {
            block: Block::Text(whole),
            delta,
        } => TITLE_STREAM_TEXT_CLOSES.fill(
            lang,
            &[("delta", &one_line(&delta)), ("whole", &one_line(whole))],
        ),
        Piece::Opens {
            block: Block::Call { call, .. },
            delta,
        } => TITLE_STREAM_CALL_OPENS.fill(
            lang,
            &[
                ("call", &call.id),
                ("tool", &call.tool),
                ("delta", &one_line(&delta)),
            ],
        ),
        Piece::Closes {
            block: Block::Call { call, arguments },
            delta,
        } => TITLE_STREAM_CALL_CLOSES.fill(
            lang,
            &[
                ("call", &call.id),
                ("delta", &one_line(&delta)),
                ("whole", &one_line(&arguments)),
            ],
        ),
        Piece::Ends { stop } => TITLE_STREAM_ENDS.fill(
            lang,
            &[("number", &number), ("stop", &stop_words(stop, lang))],
        ),
    }
}

/// The arrow beside the lanes at stream step `index`.
pub(super) fn arrow(trace: &Trace, index: Option<usize>) -> String {
    let lang = trace.lang;
    let Some((_, piece)) = index.and_then(|i| piece_at(trace, i)) else {
        return ARROW_STREAM_PIECE.get(lang).into();
    };
    match piece {
        Piece::Opens {
            block: Block::Text(_),
            delta,
        }
        | Piece::Closes {
            block: Block::Text(_),
            delta,
        } => ARROW_STREAM_TEXT.fill(lang, &[("delta", &one_line(&delta))]),
        Piece::Opens {
            block: Block::Call { call, .. },
            delta,
        } => ARROW_STREAM_CALL_OPENS.fill(
            lang,
            &[
                ("call", &call.id),
                ("tool", &call.tool),
                ("delta", &one_line(&delta)),
            ],
        ),
        Piece::Closes {
            block: Block::Call { call, .. },
            delta,
        } => ARROW_STREAM_ARGUMENTS.fill(lang, &[("call", &call.id), ("delta", &one_line(&delta))]),
        Piece::Ends { stop } => ARROW_STREAM_ENDS.fill(lang, &[("stop", &stop_words(stop, lang))]),
    }
}

/// The plain explanation of stream step `index`.
pub(super) fn why(trace: &Trace, index: usize) -> Label {
    match piece_at(trace, index).map(|(_, piece)| piece) {
        Some(Piece::Opens {
            block: Block::Text(_),
            ..
        }) => WHY_STREAM_TEXT_OPENS,
        Some(Piece::Closes {
            block: Block::Text(_),
            ..
        }) => WHY_STREAM_TEXT_CLOSES,
        Some(Piece::Opens { .. }) => WHY_STREAM_CALL_OPENS,
        Some(Piece::Closes { .. }) => WHY_STREAM_CALL_CLOSES,
        Some(Piece::Ends { .. }) | None => WHY_STREAM_ENDS,
    }
}
