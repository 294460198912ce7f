//! A pass over the JSON text of a scenario, beside serde: where each key
//! and each list item is (line:column), and keys that appear twice in one
//! object. serde_json keeps the last of two equal keys in a map without a
//! word, so `"files": {"a": "1", "a": "2"}` would silently lose a file;
//! this pass is how the loader sees it.
//!
//! It runs only on text serde_json has accepted as JSON, so it needs no
//! error handling of its own: on anything unexpected it stops.

use std::collections::HashMap;

use super::wording::key_path;

/// Deeper than this the scan stops: serde_json refuses nesting past 128.
const MAX_DEPTH: usize = 200;

/// A place in the text: 1-based line and column, in characters.
pub(super) type Place = (usize, usize);

/// A key written twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Duplicate {
    /// The JSON path of the member, e.g. `files["a.txt"]`.
    pub path: String,
    pub key: String,
    /// Where it is written again, and where first.
    pub again: Place,
    pub first: Place,
}

/// What the pass found.
#[derive(Debug, Default)]
pub(super) struct Keys {
    /// JSON path (as `errors::key_path` writes it) → where its key is
    /// written (members) or where it starts (list items).
    pub places: HashMap<String, Place>,
    pub duplicates: Vec<Duplicate>,
}

impl Keys {
    /// `12:5 at tools[1]` for a path the text holds, else the path alone;
    /// for a path inside a value (`narration.7`) the nearest one written.
    pub(super) fn place(&self, path: &str) -> String {
        let mut probe = path;
        loop {
            if let Some((line, column)) = self.places.get(probe) {
                return if probe.is_empty() {
                    path.to_string()
                } else {
                    format!("{line}:{column} at {path}")
                };
            }
            match probe.rfind(['.', '[']) {
                Some(cut) => probe = &probe[..cut],
                None if !probe.is_empty() => probe = "",
                None => return path.to_string(),
            }
        }
    }
}

enum Container {
    Object {
        path: String,
        /// Keys so far, with where each was first written.
        seen: HashMap<String, Place>,
        /// The key whose value comes next.
        key: Option<String>,
    },
    List {
        path: String,
        index: usize,
    },
}

/// Line and column of increasing offsets, in one walk over the text.
struct Cursor<'t> {
    text: &'t str,
    offset: usize,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn at(&mut self, offset: usize) -> Place {
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.offset = offset;
        (self.line, self.column)
    }
}

pub(super) fn scan(text: &str) -> Keys {
    let mut keys = Keys::default();
    let bytes = text.as_bytes();
    let mut cursor = Cursor {
        text,
        offset: 0,
        line: 1,
        column: 1,
    };
    let mut stack: Vec<Container> = Vec::new();
    let mut expecting_key = false;
    let mut pos = 0;
    while pos < bytes.len() {
        let b = bytes[pos];
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | b':' => pos += 1,
            b',' => {
                match stack.last_mut() {
                    Some(Container::List { index, .. }) => *index += 1,
                    Some(Container::Object { .. }) => expecting_key = true,
                    None => return keys,
                }
                pos += 1;
            }
            b'}' | b']' => {
                stack.pop();
                expecting_key = false;
                pos += 1;
            }
            b'"' if expecting_key => {
                let Some(end) = member_key(&mut keys, stack.last_mut(), &mut cursor, pos) else {
                    return keys;
                };
                expecting_key = false;
                pos = end;
            }
            _ => {
                // A value: its path, and where a list item starts.
                let path = match stack.last() {
                    None => String::new(),
                    Some(Container::Object { path, key, .. }) => {
                        key_path(path, key.as_deref().unwrap_or_default())
                    }
                    Some(Container::List { path, index }) => {
                        let item = format!("{path}[{index}]");
                        let place = cursor.at(pos);
                        keys.places.insert(item.clone(), place);
                        item
                    }
                };
                match b {
                    b'{' | b'[' => {
                        if stack.len() >= MAX_DEPTH {
                            return keys;
                        }
                        if stack.is_empty() {
                            keys.places.insert(String::new(), cursor.at(pos));
                        }
                        stack.push(if b == b'{' {
                            Container::Object {
                                path,
                                seen: HashMap::new(),
                                key: None,
                            }
                        } else {
                            Container::List { path, index: 0 }
                        });
                        expecting_key = b == b'{';
                        pos += 1;
                    }
                    b'"' => match string_at(text, pos) {
                        Some((_, end)) => pos = end,
                        None => return keys,
                    },
                    _ => {
                        let rest = &bytes[pos..];
                        let len = rest
                            .iter()
                            .position(|c| b" \t\r\n,]}".contains(c))
                            .unwrap_or(rest.len());
                        pos += len.max(1);
                    }
                }
            }
        }
    }
    keys
}

/// The member key that starts at `pos` in the object being read: its
/// place, and a duplicate if the object has it already. Where the key
/// ends, or None where the text stops reading as JSON.
fn member_key(
    keys: &mut Keys,
    object: Option<&mut Container>,
    cursor: &mut Cursor<'_>,
    pos: usize,
) -> Option<usize> {
    let (key, end) = string_at(cursor.text, pos)?;
    let place = cursor.at(pos);
    let Some(Container::Object {
        path, seen, key: k, ..
    }) = object
    else {
        return None;
    };
    let member = key_path(path, &key);
    match seen.get(&key) {
        Some(&first) => keys.duplicates.push(Duplicate {
            path: member.clone(),
            key: key.clone(),
            again: place,
            first,
        }),
        None => {
            seen.insert(key.clone(), place);
        }
    }
    keys.places.insert(member, place);
    *k = Some(key);
    Some(end)
}

/// The string starting at the quote at `start`, decoded, and the offset
/// just after its closing quote.
fn string_at(text: &str, start: usize) -> Option<(String, usize)> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    let mut escaped = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                escaped = true;
                i += 2;
            }
            b'"' => {
                let raw = &text[start..=i];
                let value = if escaped {
                    serde_json::from_str(raw).ok()?
                } else {
                    raw[1..raw.len() - 1].to_string()
                };
                return Some((value, i + 1));
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_duplicates_at_every_level() {
        let text = "{\n  \"files\": {\"a\": \"1\", \"b\": \"2\", \"a\": \"3\"},\n  \"model\": [ {\"x\": 1}, {\"say\": {\"en\": \"é\", \"e\\u006e\": \"y\"}} ]\n}";
        let keys = scan(text);
        assert_eq!(keys.places["files"], (2, 3));
        assert_eq!(keys.places["files.b"], (2, 23));
        assert_eq!(keys.places["model[1]"], (3, 24));
        // A key written twice has the place of the last, the one serde keeps.
        assert_eq!(keys.places["model[1].say.en"], (3, 44));
        assert_eq!(
            keys.duplicates,
            [
                Duplicate {
                    path: "files.a".into(),
                    key: "a".into(),
                    again: (2, 33),
                    first: (2, 13),
                },
                Duplicate {
                    path: "model[1].say.en".into(),
                    key: "en".into(),
                    again: (3, 44),
                    first: (3, 33),
                },
            ]
        );
        assert_eq!(keys.place("model[1].say"), "3:25 at model[1].say");
        assert_eq!(keys.place("narration.7"), "narration.7");
        assert_eq!(keys.place("files.b.zz"), "2:23 at files.b.zz");
    }

    #[test]
    fn quoted_keys_use_the_path_form_of_errors() {
        let keys = scan(r#"{"files": {"../x": "", "../x": ""}}"#);
        assert_eq!(keys.duplicates[0].path, r#"files["../x"]"#);
        assert_eq!(keys.duplicates[0].again, (1, 24));
    }

    #[test]
    fn deep_nesting_stops_quietly() {
        let text = "[".repeat(100_000);
        assert!(scan(&text).duplicates.is_empty());
    }
}
