//! The pseudo-locale (`Lang::Pseudo`, `--lang pseudo`): every English
//! text of the catalogue and of the lessons accented and lengthened ("next
//! step" → "ñééẋţ šţééƥ"), so a frame drawn in it shows at once any text
//! that does not come from the catalogue or the lesson (it stays plain
//! ASCII), and every frame is drawn with texts a third longer. It shows a
//! third language costs one column of the catalogue (and the lessons'
//! texts); being made from English, it has no column of its own.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// Each text transformed once, and kept for the program's life (a
/// `Label`'s text is `&'static`): only texts shown in the pseudo-locale
/// come here, a bounded set (the catalogue's and the open lessons').
static MEMO: Mutex<BTreeMap<String, &'static str>> = Mutex::new(BTreeMap::new());

/// The pseudo-locale's text for an English text: the catalogue's, or a
/// lesson's.
pub fn of(text: &str) -> &'static str {
    let mut memo = MEMO
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(done) = memo.get(text) {
        return done;
    }
    let done: &'static str = Box::leak(transform(text).into_boxed_str());
    memo.insert(text.to_string(), done);
    done
}

const LOWER: [char; 26] = [
    'á', 'ƀ', 'ç', 'ď', 'é', 'ƒ', 'ĝ', 'ĥ', 'í', 'ĵ', 'ķ', 'ĺ', 'ɱ', 'ñ', 'ó', 'ƥ', 'ʠ', 'ŕ', 'š',
    'ţ', 'ú', 'ṽ', 'ŵ', 'ẋ', 'ý', 'ž',
];
const UPPER: [char; 26] = [
    'Á', 'Ɓ', 'Ç', 'Ď', 'É', 'Ƒ', 'Ĝ', 'Ĥ', 'Í', 'Ĵ', 'Ķ', 'Ĺ', 'Ṁ', 'Ñ', 'Ó', 'Ƥ', 'Ꝗ', 'Ŕ', 'Š',
    'Ţ', 'Ú', 'Ṽ', 'Ŵ', 'Ẋ', 'Ý', 'Ž',
];

/// The length of the `{hole}` `text` starts with (a name in braces), if
/// it starts with one: a lone `{` (a lesson's JSON, `{"path":"c`) is text.
fn hole_len(text: &str) -> Option<usize> {
    let name = text.strip_prefix('{')?;
    let end = name.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    (end > 0 && name[end..].starts_with('}')).then_some(end + 2)
}

/// Each ASCII letter accented, each vowel doubled (about a third longer);
/// `{holes}` are kept as they are, for `Label::fill`.
fn transform(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut hole_end = 0;
    for (i, c) in text.char_indices() {
        if i >= hole_end
            && let Some(len) = hole_len(&text[i..])
        {
            hole_end = i + len;
        }
        if i < hole_end || !c.is_ascii_alphabetic() {
            out.push(c);
            continue;
        }
        let i = (c.to_ascii_lowercase() as u8 - b'a') as usize;
        let accented = if c.is_ascii_lowercase() {
            LOWER[i]
        } else {
            UPPER[i]
        };
        out.push(accented);
        if "aeiouAEIOU".contains(c) {
            out.push(accented);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;
    use crate::action::Action;
    use crate::app::{self, App};
    use crate::frames;
    use crate::load;
    use crate::scenario::Lang;
    use crate::theme::Theme;
    use crate::wire::Provider;

    #[test]
    fn the_transform_accents_lengthens_and_keeps_holes() {
        assert_eq!(transform("next step"), "ñééẋţ šţééƥ");
        assert_eq!(
            transform("Call #{number} at {place}"),
            "Çááĺĺ #{number} ááţ {place}"
        );
        assert_eq!(transform("步骤 3/8"), "步骤 3/8");
        // A lone brace is text (a lesson quoting JSON), not a hole.
        assert_eq!(transform("so far {\"pa"), "šóó ƒááŕ {\"ƥáá");
    }

    /// A run shown in a written language pays nothing for the
    /// pseudo-locale; told in it, it has the run's steps in its words.
    #[test]
    fn the_pseudo_trace_is_made_only_when_asked_for() {
        let loaded = load::load("read-config-timeout").unwrap();
        assert!(loaded.pseudo.is_none());
        assert!(
            load::shown_in(loaded.clone(), Lang::En)
                .unwrap()
                .pseudo
                .is_none()
        );
        let shown = load::shown_in(loaded, Lang::Pseudo).unwrap();
        let (pseudo, en) = (shown.trace(Lang::Pseudo), shown.trace(Lang::En));
        assert_eq!(pseudo.lang, Lang::Pseudo);
        assert_eq!(pseudo.len(), en.len());
        assert_eq!(pseudo.title, of(&en.title));
    }

    /// Key caps are named the same in every language.
    const KEY_CAPS: [&str; 10] = [
        "Space", "Home", "End", "PgUp", "PgDn", "Bksp", "Enter", "Tab", "Esc", "Ctrl",
    ];

    /// The words of a text: runs of letters, digits and `_./-`, without a
    /// sentence's last full stop. Ids, paths and file names (a digit, `_`,
    /// `/` or an inner `.`) are data, and left out.
    fn words(text: &str) -> Vec<&str> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)))
            .map(|w| w.trim_matches(|c| ".-".contains(c)))
            .filter(|w| w.len() >= 3)
            .filter(|w| !w.contains(|c: char| c.is_ascii_digit() || "_/.".contains(c)))
            .flat_map(|w| w.split('-'))
            .filter(|w| w.len() >= 3)
            .collect()
    }

    /// The strings of a lesson that are the same in every language (file
    /// contents, tool names, arguments, ids), not its texts (`{zh, en}`,
    /// which the pseudo-locale translates).
    fn data_strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| data_strings(v, out)),
            serde_json::Value::Object(map) if map.contains_key("zh") && map.contains_key("en") => {}
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.push(k.clone());
                    data_strings(v, out);
                }
            }
            _ => {}
        }
    }

    /// A drawn line of JSON without its escapes (`\n` would glue an `n`
    /// to the next word).
    fn unescaped(line: &str) -> String {
        line.replace("\\n", "  ")
            .replace("\\t", "  ")
            .replace("\\\"", "  ")
    }

    /// A lesson's Chinese texts.
    fn zh_texts(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Array(items) => items.iter().for_each(|v| zh_texts(v, out)),
            serde_json::Value::Object(map) => {
                if let (Some(serde_json::Value::String(zh)), true) =
                    (map.get("zh"), map.contains_key("en"))
                {
                    out.push(zh.clone());
                }
                map.values().for_each(|v| zh_texts(v, out));
            }
            _ => {}
        }
    }

    /// The whole words of a drawn line outside JSON strings (a request
    /// body's keys and values are the provider's, not ours). The line is
    /// cut at box drawing and at `…`; a word that touches a cut (half of
    /// it is hidden behind a border or an overlay) is left out.
    fn shown_words(line: &str) -> Vec<&str> {
        let cut = |c: char| ('\u{2500}'..='\u{259f}').contains(&c) || c == '…';
        let mut out = Vec::new();
        let mut quoted = false;
        let mut segment_start = 0;
        for (i, c) in line.char_indices().chain([(line.len(), '│')]) {
            if cut(c) || (c == '"' && !quoted) {
                let segment = &line[segment_start..i];
                // Drop a word at either end of the segment if it touches
                // the cut.
                let in_word = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
                let inner_start = if segment.starts_with(in_word) {
                    segment.find(|c: char| !in_word(c)).unwrap_or(segment.len())
                } else {
                    0
                };
                let inner_end = if segment.ends_with(in_word) {
                    segment
                        .char_indices()
                        .rfind(|(_, c)| !in_word(*c))
                        .map_or(0, |(p, c)| p + c.len_utf8())
                } else {
                    segment.len()
                };
                if inner_start < inner_end {
                    out.extend(words(&segment[inner_start..inner_end]));
                }
            }
            if c == '"' {
                quoted = !quoted;
            }
            if cut(c) || c == '"' {
                segment_start = i + c.len_utf8();
            }
        }
        out
    }

    /// What a lesson holds and every language draws as it is: its texts,
    /// tools, files and ids, the keys' caps, and the words none translates.
    fn lesson_data(source: &str) -> Vec<String> {
        // What the lesson itself holds (its texts, tools, files, ids)
        // is data, drawn as it is in every language.
        let mut data = Vec::new();
        data_strings(&serde_json::from_str(source).unwrap(), &mut data);
        data.extend(KEY_CAPS.map(String::from));
        // Words the Chinese catalogue also writes in Latin letters
        // (API terms: call_id, JSON, tool_result) are not translated.
        for (_, label) in crate::i18n::CATALOGUE {
            data.push(label.get(Lang::Zh).to_string());
        }
        for binding in crate::keymap::KEYMAP {
            data.extend(binding.hint.map(|h| h.get(Lang::Zh).to_string()));
            data.push(binding.help.get(Lang::Zh).to_string());
        }
        // Words no language translates: the APIs' names, JSON's
        // literals, and what a JSON parser says of bad arguments.
        for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
            data.push(crate::i18n::provider_name(provider).to_string());
        }
        data.extend(
            [
                "true false null POST",
                "EOF while parsing a string an object value trailing comma at line column",
            ]
            .map(String::from),
        );
        data
    }

    /// Each view of a step (the panels, the request body, and at the last
    /// step the help and about) as `app` and `zh` draw it.
    fn views(app: &App, zh: &App, step: usize, w: u16, h: u16) -> Vec<[String; 2]> {
        let mut views = vec![vec![], vec![Action::ToggleWire]];
        if step == app.last() {
            views.push(vec![Action::ToggleHelp]);
            views.push(vec![Action::ToggleAbout]);
        }
        views
            .into_iter()
            .map(|actions| {
                [app, zh].map(|a| {
                    let mut a = frames::at_step(a, step, w, h);
                    for action in &actions {
                        app::update(&mut a, *action);
                    }
                    frames::to_text(&frames::render(&a, w, h))
                })
            })
            .collect()
    }

    #[test]
    fn every_frame_in_the_pseudo_locale_shows_only_catalogue_text() {
        let mut found: BTreeMap<String, String> = BTreeMap::new();
        let mut refused = Vec::new();
        let mut in_zh_found: BTreeMap<String, String> = BTreeMap::new();
        for (name, source) in load::catalog::CATALOG {
            let data = lesson_data(source);
            let mut data_zh = data.clone();
            zh_texts(&serde_json::from_str(source).unwrap(), &mut data_zh);
            // The run told in the pseudo-locale (`load::shown_in`): the
            // host's texts and the lesson's in it. A lesson tuned to
            // compact at a token count, or whose scripted model reacts
            // to words of the context, would run otherwise with its
            // texts a third longer, and is refused: it needs a lesson
            // tuned for the language, not code. They are listed, any
            // other fails.
            let shown = load::load(name).and_then(|l| load::shown_in(l, Lang::Pseudo));
            let loaded = match shown {
                Ok(loaded) if loaded.faults.is_empty() => loaded,
                _ => {
                    refused.push(*name);
                    continue;
                }
            };
            let app = App::new(loaded.clone(), Lang::Pseudo, Theme::DARK);
            // The same frame in Chinese: what it shows in Latin letters
            // too (file contents, a request body's JSON, a parser's or
            // a provider's own message) is not the screen's language.
            // A provider's 400 is in its own words.
            let trace = loaded.trace(Lang::Zh);
            data_zh.extend(
                trace
                    .model_calls
                    .iter()
                    .filter_map(|mc| trace.rejection(mc))
                    .map(String::from),
            );
            // And a request turned away (429, 529, 503): its status line
            // and body, as the provider sends them.
            data_zh.extend(
                trace
                    .steps
                    .iter()
                    .filter_map(|s| crate::wire::error_at(trace, &s.kind)),
            );
            let zh = App::new(loaded, Lang::Zh, Theme::DARK);
            for (w, h) in [(120, 40), (80, 24)] {
                for step in 0..=app.last() {
                    for [shown, same_in_zh] in views(&app, &zh, step, w, h) {
                        let in_zh: BTreeSet<&str> = same_in_zh.lines().flat_map(words).collect();
                        for line in same_in_zh.lines() {
                            for word in shown_words(&unescaped(line)) {
                                if !data_zh.iter().any(|d| d.contains(word)) {
                                    in_zh_found.entry(word.to_string()).or_insert_with(|| {
                                        format!("{name} {w}x{h} step {}: {}", step + 1, line.trim())
                                    });
                                }
                            }
                        }
                        for line in shown.lines() {
                            for word in shown_words(&unescaped(line)) {
                                // A word is data when a lesson's string holds
                                // it (a part of one too: wrapped JSON
                                // breaks words).
                                let is_data = data.iter().any(|d| d.contains(word));
                                if !is_data && !in_zh.contains(word) {
                                    found.entry(word.to_string()).or_insert_with(|| {
                                        format!("{name} {w}x{h} step {}: {}", step + 1, line.trim())
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(
            refused,
            [
                "patch-and-test",
                "context-compaction-summary",
                "context-compaction-lost-fact"
            ],
            "lessons that run otherwise in the pseudo-locale"
        );
        let zh_report: Vec<String> = in_zh_found
            .iter()
            .map(|(w, at)| format!("{w:>20}  {at}"))
            .collect();
        assert!(
            in_zh_found.is_empty(),
            "{} Latin words in Chinese frames:\n{}",
            in_zh_found.len(),
            zh_report.join("\n")
        );
        let report: Vec<String> = found
            .iter()
            .map(|(w, at)| format!("{w:>20}  {at}"))
            .collect();
        assert!(
            found.is_empty(),
            "{} words not from the catalogue:\n{}",
            found.len(),
            report.join("\n")
        );
    }
}
