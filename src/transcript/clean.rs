//! Text from a transcript made safe before it reaches a screen.

use serde_json::Value;

use super::redact;

/// Text from a transcript made safe for a terminal, and masked when asked.
pub(crate) fn clean_redacted(s: &str, redact: bool) -> String {
    let s = clean(s);
    match redact {
        true => redact::redact(&s).into_owned(),
        false => s,
    }
}

/// `clean_redacted` of a text the caller gives up: returned as it is, not
/// copied, where nothing changes (most of a long run's tool output).
pub(crate) fn clean_owned(s: String, redact: bool) -> String {
    let s = if crate::safe::plain(&s) {
        s
    } else if s.contains(['\t', '\r']) {
        clean(&s)
    } else {
        match crate::safe::for_screen(&s) {
            std::borrow::Cow::Owned(safe) => safe,
            std::borrow::Cow::Borrowed(_) => s,
        }
    };
    if !redact {
        return s;
    }
    match redact::redact(&s) {
        std::borrow::Cow::Owned(masked) => Some(masked),
        std::borrow::Cow::Borrowed(_) => None,
    }
    .unwrap_or(s)
}

/// Text from a transcript made safe for a terminal by the one rule the
/// program has for that (`safe::for_screen`: controls and bidi marks shown
/// escaped, sequences of uncertain width split). Tabs become spaces and
/// carriage returns go first: real logs are full of them.
pub(crate) fn clean(s: &str) -> String {
    if !s.contains(['\t', '\r']) {
        return crate::safe::for_screen(s).into_owned();
    }
    let spaced = s.replace('\t', "    ").replace('\r', "");
    crate::safe::for_screen(&spaced).into_owned()
}

/// A JSON text from the file (a tool call's arguments) made safe as its
/// values will be shown: the trace parses it, so an escape such as
/// `\u009b` or `\u202e` in a string would come out raw. Every key and
/// string is cleaned like any text and the JSON written back; the text is
/// kept as it is when nothing changes, and cleaned as text when it is not
/// JSON.
pub(crate) fn clean_json(raw: &str) -> String {
    fn strings(value: &mut Value) -> bool {
        match value {
            Value::String(s) => match crate::safe::for_screen(s) {
                std::borrow::Cow::Owned(safe) => {
                    *s = safe;
                    true
                }
                std::borrow::Cow::Borrowed(_) => false,
            },
            Value::Array(items) => items.iter_mut().fold(false, |c, v| strings(v) | c),
            Value::Object(map) => {
                let unsafe_key = map.keys().any(|k| k.as_str() != crate::safe::for_screen(k));
                if unsafe_key {
                    *map = std::mem::take(map)
                        .into_iter()
                        .map(|(k, v)| (crate::safe::for_screen(&k).into_owned(), v))
                        .collect();
                }
                map.values_mut().fold(unsafe_key, |c, v| strings(v) | c)
            }
            _ => false,
        }
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(mut value) => match strings(&mut value) {
            true => value.to_string(),
            false if raw.contains(['\t', '\r']) => clean(raw),
            false => raw.to_string(),
        },
        Err(_) => clean(raw),
    }
}
