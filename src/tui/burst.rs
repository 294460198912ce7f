//! A burst of events: every event already waiting is taken before the
//! screen is drawn again, and keys whose escape sequence crossterm cut in
//! two are joined again.

use std::io;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};

/// `first` and every event already waiting behind it, keys cut in two
/// joined again (`rejoin_split_keys`): a held key or a clicker's burst is
/// applied in full and in order, with one draw at the end, and a `q`
/// behind it is not kept waiting. `None` is a wait that timed out.
pub(super) fn gather(first: Option<Event>) -> io::Result<Vec<Option<Event>>> {
    let mut events = vec![first];
    loop {
        while event::poll(PENDING)? {
            events.push(Some(event::read()?));
        }
        // A burst cut right after an ESC: the rest of its sequence is
        // still being written, so wait for it rather than take an Esc
        // and two characters (`rejoin_split_keys`). A typed Esc waits
        // these few milliseconds too.
        let cut = matches!(events.last(), Some(Some(Event::Key(k)))
            if k.code == KeyCode::Esc && k.modifiers.is_empty());
        if !(cut && event::poll(ESC_REST)?) {
            break;
        }
    }
    Ok(rejoin_split_keys(events))
}

/// How long to wait for one more event of a burst: only what is already
/// there. Not zero: crossterm's poll(2) reader does not look at the
/// terminal at all for a zero timeout (not even at the keys it has already
/// read). Not a millisecond either: poll(2) counts in whole milliseconds,
/// so crossterm calls it with 0 over and over until the time is up, about
/// 1,100 times (1 ms of CPU for every key). A microsecond is one look at
/// what crossterm holds and one poll(2) of the terminal; the rest of a
/// burst still being written is taken by the next `read`, one draw later.
const PENDING: Duration = Duration::from_micros(1);

/// How long an Esc at the end of a burst waits for the rest of an escape
/// sequence crossterm may have cut after it.
const ESC_REST: Duration = Duration::from_millis(5);

/// Keys whose escape sequence crossterm cut in two. It reads the terminal
/// in pieces, and when a piece ends right after the ESC that starts a
/// sequence, it reports an Esc key (which closes what is open) and then the rest as
/// characters: `ESC` `[` `C` instead of Right, in the middle of a burst of
/// keys (crossterm issue #993). No one types Esc and `[` within a
/// millisecond, so Esc followed by `[` or `O` and the rest of a sequence in
/// the same burst is taken as the key the sequence names.
fn rejoin_split_keys(events: Vec<Option<Event>>) -> Vec<Option<Event>> {
    let mut out = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        if let Some((key, used)) = split_key_at(&events[i..]) {
            out.push(Some(Event::Key(key.into())));
            i += used;
        } else {
            out.push(events[i].clone());
            i += 1;
        }
    }
    out
}

/// The key of a sequence cut after its ESC that starts `events`, and how
/// many events it spans.
fn split_key_at(events: &[Option<Event>]) -> Option<(KeyCode, usize)> {
    let char_at = |i: usize| match events.get(i) {
        Some(Some(Event::Key(k)))
            if k.kind == KeyEventKind::Press
                && k.modifiers.difference(KeyModifiers::SHIFT).is_empty() =>
        {
            match k.code {
                KeyCode::Char(c) => Some(c),
                _ => None,
            }
        }
        _ => None,
    };
    match events.first() {
        Some(Some(Event::Key(k))) if k.code == KeyCode::Esc && k.modifiers.is_empty() => {}
        _ => return None,
    }
    let intro = char_at(1).filter(|c| *c == '[' || *c == 'O')?;
    // Parameters (digits and ';'), then the final character.
    let mut params = String::new();
    let mut i = 2;
    while let Some(c) = char_at(i).filter(|c| c.is_ascii_digit() || *c == ';') {
        params.push(c);
        i += 1;
    }
    let last = char_at(i)?;
    let first_param = params.split(';').next().unwrap_or("");
    let key = match (intro, last, first_param) {
        (_, 'A', _) => KeyCode::Up,
        (_, 'B', _) => KeyCode::Down,
        (_, 'C', _) => KeyCode::Right,
        (_, 'D', _) => KeyCode::Left,
        (_, 'H', _) => KeyCode::Home,
        (_, 'F', _) => KeyCode::End,
        ('[', 'Z', _) => KeyCode::BackTab,
        ('[', '~', "1" | "7") => KeyCode::Home,
        ('[', '~', "4" | "8") => KeyCode::End,
        ('[', '~', "5") => KeyCode::PageUp,
        ('[', '~', "6") => KeyCode::PageDown,
        ('[', '~', "3") => KeyCode::Delete,
        _ => return None,
    };
    Some((key, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;

    fn keys(codes: &[KeyCode]) -> Vec<Option<Event>> {
        codes
            .iter()
            .map(|c| Some(Event::Key(KeyEvent::from(*c))))
            .collect()
    }

    fn chars(s: &str) -> Vec<KeyCode> {
        s.chars().map(KeyCode::Char).collect()
    }

    #[test]
    fn a_sequence_cut_after_its_escape_is_the_key_it_names() {
        use KeyCode::*;
        let mut cut = vec![Right, Right, Esc];
        cut.extend(chars("[C"));
        cut.push(Right);
        assert_eq!(
            rejoin_split_keys(keys(&cut)),
            keys(&[Right, Right, Right, Right])
        );
        let mut cut = vec![Esc];
        cut.extend(chars("[6~"));
        cut.push(Esc);
        cut.extend(chars("OD"));
        cut.push(Esc);
        cut.extend(chars("[1;5A"));
        assert_eq!(rejoin_split_keys(keys(&cut)), keys(&[PageDown, Left, Up]));
    }

    #[test]
    fn a_real_escape_stays_an_escape() {
        use KeyCode::*;
        for events in [
            vec![Esc],
            vec![Esc, Char('q')],
            vec![Esc, Char('['), Char('x')],
            vec![Esc, Esc],
        ] {
            assert_eq!(rejoin_split_keys(keys(&events)), keys(&events));
        }
        // A timed-out wait (None) is kept in its place.
        let mut events = keys(&[Esc]);
        events.push(None);
        assert_eq!(rejoin_split_keys(events.clone()), events);
    }
}
