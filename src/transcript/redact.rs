//! `--redact`: likely secrets in a transcript masked before anything is
//! stored, so neither the screen nor any export can show them. Transcripts
//! hold whatever people pasted: API keys, tokens, bearer headers, private
//! keys, email addresses. They are no guarantee, and the README says to
//! look before sharing.
//!
//! The rules are gitleaks' default list (`gitleaks/gitleaks.toml`, vendored
//! unchanged with its MIT licence), read the way gitleaks reads them: a
//! rule runs only on text holding one of its keywords; the secret is its
//! `secretGroup`, else its first non-empty group, else the whole match; a
//! secret whose Shannon entropy is not above the rule's `entropy` is left;
//! so is one that an allowlist (global or the rule's) allows by regex or
//! stop word. Path and commit allowlists do not apply to a transcript.
//!
//! Titus's rules come next (`titus.rs`, vendored unchanged in `titus/`):
//! formats gitleaks' list leaves out (Google OAuth access tokens, Azure
//! connection strings) and keys followed by a sentence's `.` or `,`.
//!
//! A few rules of our own come after them, for what a scanner of source
//! code leaves to its allowlists but a transcript should not show: a
//! password of any length after `password=`, a bearer or basic header,
//! the credentials of a URL (`https://user:pass@host`), a private key cut
//! off before its END line, email addresses, and keys by their prefix
//! alone (cut short, or longer than their format). A finding that stops
//! inside a word is masked to the word's end, so nothing of a key with a
//! character too many is left behind.

use std::borrow::Cow;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use super::patterns::{entropy, go_syntax};

/// gitleaks' default configuration, as released.
const GITLEAKS: &str = include_str!("gitleaks/gitleaks.toml");

#[derive(Deserialize)]
struct Config {
    allowlist: Option<AllowlistToml>,
    rules: Vec<RuleToml>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleToml {
    id: String,
    regex: Option<String>,
    #[serde(default)]
    entropy: f64,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    secret_group: usize,
    #[serde(default)]
    allowlists: Vec<AllowlistToml>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AllowlistToml {
    #[serde(default)]
    regexes: Vec<String>,
    regex_target: Option<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    commits: Vec<String>,
    condition: Option<String>,
}

/// What an allowlist's regexes are tried on.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Target {
    Secret,
    Match,
    Line,
}

struct Allowlist {
    regexes: Vec<Regex>,
    target: Target,
    stopwords: Option<AhoCorasick>,
}

impl Allowlist {
    /// None for a list that can never allow a finding in a transcript: one
    /// that also needs a path or a commit (`condition = "AND"`), or one of
    /// paths and commits only.
    fn new(toml: &AllowlistToml) -> Result<Option<Self>, String> {
        let and = toml.condition.as_deref() == Some("AND");
        let needs_place = !toml.paths.is_empty() || !toml.commits.is_empty();
        if (and && needs_place) || (toml.regexes.is_empty() && toml.stopwords.is_empty()) {
            return Ok(None);
        }
        let target = match toml.regex_target.as_deref() {
            None | Some("") | Some("secret") => Target::Secret,
            Some("match") => Target::Match,
            Some("line") => Target::Line,
            Some(other) => return Err(format!("unknown regexTarget {other:?}")),
        };
        let regexes = toml
            .regexes
            .iter()
            .map(|r| compile(r))
            .collect::<Result<_, _>>()?;
        let stopwords = match toml.stopwords.is_empty() {
            true => None,
            false => Some(
                AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .build(&toml.stopwords)
                    .map_err(|e| e.to_string())?,
            ),
        };
        Ok(Some(Allowlist {
            regexes,
            target,
            stopwords,
        }))
    }

    fn allows(&self, secret: &str, whole: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        (!target.is_empty() && self.regexes.iter().any(|r| r.is_match(target)))
            || self
                .stopwords
                .as_ref()
                .is_some_and(|words| words.is_match(secret))
    }
}

struct Rule {
    id: String,
    regex: Regex,
    entropy: f64,
    secret_group: usize,
    allowlists: Vec<Allowlist>,
    /// gitleaks' catch-all: a finding of a specific rule names it better.
    generic: bool,
}

struct Rules {
    rules: Vec<Rule>,
    /// Every keyword of every rule, ASCII case-insensitive.
    keywords: AhoCorasick,
    /// For each keyword, the rules it wakes.
    keyword_rules: Vec<Vec<usize>>,
    /// Rules without keywords, run on every text.
    always: Vec<usize>,
    global: Vec<Allowlist>,
}

fn compile(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(&go_syntax(pattern))
        .size_limit(1 << 24)
        .build()
        .map_err(|e| e.to_string())
}

fn load_rules(text: &str) -> Result<Rules, String> {
    let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
    let global = match &config.allowlist {
        Some(list) => Allowlist::new(list)?.into_iter().collect(),
        None => Vec::new(),
    };
    let mut rules = Vec::new();
    let mut keyword_list: Vec<String> = Vec::new();
    let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
    let mut always = Vec::new();
    for rule in config.rules {
        // A rule of file paths only finds files, not text.
        let Some(pattern) = rule.regex else { continue };
        let regex = compile(&pattern).map_err(|e| format!("rule {}: {e}", rule.id))?;
        let allowlists = rule
            .allowlists
            .iter()
            .map(Allowlist::new)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("rule {}: {e}", rule.id))?
            .into_iter()
            .flatten()
            .collect();
        let index = rules.len();
        if rule.keywords.is_empty() {
            always.push(index);
        }
        for keyword in &rule.keywords {
            let keyword = keyword.to_ascii_lowercase();
            match keyword_list.iter().position(|k| *k == keyword) {
                Some(k) => keyword_rules[k].push(index),
                None => {
                    keyword_list.push(keyword);
                    keyword_rules.push(vec![index]);
                }
            }
        }
        rules.push(Rule {
            generic: rule.id == "generic-api-key",
            id: rule.id,
            regex,
            entropy: rule.entropy,
            secret_group: rule.secret_group,
            allowlists,
        });
    }
    let keywords = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(&keyword_list)
        .map_err(|e| e.to_string())?;
    Ok(Rules {
        rules,
        keywords,
        keyword_rules,
        always,
        global,
    })
}

static GITLEAKS_RULES: LazyLock<Rules> =
    LazyLock::new(|| load_rules(GITLEAKS).expect("the vendored gitleaks rules load (tested)"));

/// Our own rules, after gitleaks': (pattern, the group that is the
/// secret, its label). A group `name`, where there is one, is the name
/// the secret is assigned to.
static OWN: LazyLock<Vec<(Regex, usize, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"(?i)-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
            0,
            "private-key",
        ),
        (
            // A credential holds a digit or a symbol: "token verification" is words.
            r"(?i)\b(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]*[0-9_~+/=-][A-Za-z0-9._~+/=-]*)",
            1,
            "authorization",
        ),
        (
            r"(?i)\b[a-z][a-z0-9+.-]*://[^\s/:@]*:([^\s/@]+)@",
            1,
            "url-password",
        ),
        (
            r#"(?i)\b(?P<name>[A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|credential)[A-Za-z0-9_]*)\\?"?\s*[:=]\s*\\?["']?([^\s"',;\[\]{}\\]{4,})"#,
            2,
            "assignment",
        ),
        (
            // Keys by their prefix alone, for what both rule sets leave: a
            // key cut short or followed by a sentence's `.` (gitleaks wants
            // one of `'" ;` after it, Titus an exact length).
            r"\b(?:sk-(?:ant-[a-z]+[0-9]*-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,}|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{50,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|xox[abeoprs]-[A-Za-z0-9-]{10,}|AIza[A-Za-z0-9_-]{35}|(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}|hf_[A-Za-z0-9]{30,})",
            0,
            "key",
        ),
        (
            r"\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*",
            0,
            "jwt",
        ),
        (
            r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b",
            0,
            "email",
        ),
    ]
    .into_iter()
    .map(|(p, group, label)| (Regex::new(p).expect("a valid pattern"), group, label))
    .collect()
});

/// The name of a value that holds a secret whatever it looks like: an
/// argument `{"password": "…"}`, a header `Authorization`.
static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:api[_.-]?key|secret|token|passw(?:or)?d|^pwd$|credential|creds|private[_.-]?key|access[_.-]?key|^authorization$|^cookie$|session[_.-]?id)",
    )
    .expect("a valid pattern")
});

/// A part of the text to mask, with the rule that found it.
struct Span<'r> {
    start: usize,
    end: usize,
    label: &'r str,
    /// Lower names the secret better (a specific rule before a catch-all).
    rank: u8,
}

fn line_around(text: &str, start: usize, end: usize) -> &str {
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[end..].find('\n').map_or(text.len(), |i| end + i);
    &text[from..to]
}

fn gitleaks_spans<'r>(rules: &'r Rules, text: &str, spans: &mut Vec<Span<'r>>) {
    let mut woken = vec![false; rules.rules.len()];
    for &i in &rules.always {
        woken[i] = true;
    }
    for m in rules.keywords.find_overlapping_iter(text) {
        for &i in &rules.keyword_rules[m.pattern().as_usize()] {
            woken[i] = true;
        }
    }
    for (rule, _) in rules.rules.iter().zip(&woken).filter(|(_, w)| **w) {
        for caps in rule.regex.captures_iter(text) {
            let whole = caps.get(0).expect("group 0 is the match");
            let secret = match rule.secret_group {
                0 => (1..caps.len())
                    .filter_map(|g| caps.get(g))
                    .find(|g| !g.is_empty())
                    .unwrap_or(whole),
                g => match caps.get(g) {
                    Some(m) => m,
                    None => continue,
                },
            };
            let value = secret.as_str().trim_matches('\n');
            if rule.entropy != 0.0 && entropy(value) <= rule.entropy {
                continue;
            }
            let line = line_around(text, whole.start(), whole.end());
            let allowed =
                |lists: &[Allowlist]| lists.iter().any(|a| a.allows(value, whole.as_str(), line));
            if allowed(&rules.global) || allowed(&rule.allowlists) {
                continue;
            }
            spans.push(Span {
                start: secret.start(),
                end: secret.end(),
                label: &rule.id,
                rank: u8::from(rule.generic),
            });
        }
    }
}

/// Every string of a JSON value (a recorded request or response body,
/// a tap line) with `redact` applied; keys and structure kept.
pub fn redact_strings(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            if let Cow::Owned(r) = redact(s) {
                *s = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_strings),
        Value::Object(map) => map.values_mut().for_each(redact_strings),
        _ => {}
    }
}

/// The text with likely secrets replaced by `[redacted: RULE]`, RULE
/// naming what was found (`aws-access-token`, `jwt`, `email`, …).
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut spans = Vec::new();
    gitleaks_spans(&GITLEAKS_RULES, text, &mut spans);
    let titus = &*super::titus::RULES;
    titus.find(text, |start, end, rule| {
        spans.push(Span {
            start,
            end,
            label: &titus.rules[rule].label,
            rank: 0,
        })
    });
    for (regex, group, label) in OWN.iter() {
        for caps in regex.captures_iter(text) {
            // `max_tokens: 4096` is a count, not a token.
            let count = caps
                .name("name")
                .is_some_and(|n| n.as_str().to_ascii_lowercase().ends_with("tokens"));
            let short = *label == "authorization" && caps.get(*group).is_some_and(|m| m.len() < 12);
            if count || short {
                continue;
            }
            if let Some(m) = caps.get(*group).filter(|m| !m.is_empty()) {
                spans.push(Span {
                    start: m.start(),
                    end: m.end(),
                    label,
                    rank: 2,
                });
            }
        }
    }
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    // `user:pass@host` reads as an email from `pass` on: the host stays.
    let passwords: Vec<(usize, usize)> = spans
        .iter()
        .filter(|s| s.label == "url-password")
        .map(|s| (s.start, s.end))
        .collect();
    spans.retain(|s| {
        s.label != "email" || !passwords.iter().any(|&(a, b)| (a..b).contains(&s.start))
    });
    // Titus's finding of a URL with credentials is the whole URL: the
    // password alone is masked, so the host stays readable.
    spans.retain(|s| {
        s.label != "uri-with-username-and-secret"
            || !passwords.iter().any(|&(a, b)| s.start <= a && b <= s.end)
    });
    // A match that stops inside a word (a key with one character too
    // many) is masked to the word's end: nothing of it is left behind.
    for span in &mut spans {
        span.end += text[span.end..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
            .count();
    }
    spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut k = 0;
    while k < spans.len() {
        // Overlapping findings are masked as one, named by the best rule.
        let (start, mut end, mut best) = (spans[k].start, spans[k].end, &spans[k]);
        k += 1;
        while k < spans.len() && spans[k].start < end {
            end = end.max(spans[k].end);
            if spans[k].rank < best.rank {
                best = &spans[k];
            }
            k += 1;
        }
        let start = start.max(at);
        out.push_str(&text[at..start]);
        out.push_str("[redacted: ");
        out.push_str(best.label);
        out.push(']');
        at = end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// A named value (a tool call's argument, a header): masked whole when its
/// name says it holds a secret, else as any text.
pub fn redact_named(name: &str, value: &str) -> String {
    if !value.is_empty() && SECRET_NAME.is_match(name) {
        return "[redacted: assignment]".to_string();
    }
    redact(value).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vendored_rule_loads_and_compiles() {
        let rules = load_rules(GITLEAKS).expect("rules");
        assert!(rules.rules.len() > 200, "{}", rules.rules.len());
        for id in [
            "aws-access-token",
            "github-pat",
            "gitlab-pat",
            "slack-bot-token",
            "stripe-access-token",
            "gcp-api-key",
            "openai-api-key",
            "anthropic-api-key",
            "npm-access-token",
            "pypi-upload-token",
            "jwt",
            "private-key",
            "generic-api-key",
        ] {
            assert!(rules.rules.iter().any(|r| r.id == id), "{id}");
        }
        // The catch-all keeps its allowlists, stop words included.
        let generic = rules.rules.iter().find(|r| r.generic).unwrap();
        assert!(generic.allowlists.iter().any(|a| a.stopwords.is_some()));
    }

    #[test]
    fn likely_secrets_are_masked_and_ordinary_text_is_not() {
        let cases = [
            (
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc",
                "Authorization: Bearer [redacted: http-bearer-token]",
            ),
            (
                "password: hunter2hunter2",
                "password: [redacted: assignment]",
            ),
            ("password=hunter2", "password=[redacted: assignment]"),
            (
                r#"{"cmd": "{\"password\": \"hunter2\"}"}"#,
                r#"{"cmd": "{\"password\": \"[redacted: assignment]\"}"}"#,
            ),
            (
                "{\"api_key\": \"abc123def456\"}",
                "{\"api_key\": \"[redacted: generic-api-key]\"}",
            ),
            (
                "write to ada@example.org now",
                "write to [redacted: email] now",
            ),
            (
                "git clone https://ada:s3cr3t-pw@git.example.org/x.git",
                "git clone https://ada:[redacted: url-password]@git.example.org/x.git",
            ),
            (
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n",
                "[redacted: private-key]",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(redact(input), expected, "{input}");
        }
        for plain in [
            "cargo test failed: cannot find value `limit` in src/lib.rs:12",
            "the timeout is 30 seconds; see config.txt",
            "读取 config.txt：timeout=30",
        ] {
            assert_eq!(redact(plain), plain);
        }
    }

    /// `tests/secrets/fake-keys.tsv`: (format, secret, the text holding it).
    pub(crate) fn fake_keys() -> Vec<(String, String, String)> {
        let corpus = include_str!("../../tests/secrets/fake-keys.tsv");
        corpus
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| {
                let mut f = l.split('\t').map(|f| f.replace("\\n", "\n"));
                let (format, secret, text) =
                    (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
                let text = text.replace("{}", &secret);
                (format, secret, text)
            })
            .collect()
    }

    #[test]
    fn every_fake_key_of_the_corpus_is_masked_whole() {
        let keys = fake_keys();
        assert!(keys.len() >= 35, "{}", keys.len());
        let mut leaks = Vec::new();
        for (format, secret, text) in &keys {
            let out = redact(text);
            // Not the secret, nor any 8 characters of it in a row.
            let chars: Vec<char> = secret.chars().collect();
            let piece = chars
                .windows(8)
                .map(|w| w.iter().collect::<String>())
                .find(|w| out.contains(w.as_str()));
            if !out.contains("[redacted: ") || piece.is_some() {
                leaks.push(format!("{format}: {out:?} (left {piece:?})"));
            }
        }
        assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    }

    #[test]
    fn a_key_longer_than_its_format_is_masked_to_its_end() {
        // One character more than a Google API key has: no rule set takes
        // it whole, and none of it may be left behind.
        let key = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7X";
        assert_eq!(
            redact(&format!("the key {key}, for the demo")),
            "the key [redacted: key], for the demo"
        );
    }

    #[test]
    fn a_named_secret_is_masked_whatever_its_value() {
        assert_eq!(redact_named("password", "x1"), "[redacted: assignment]");
        assert_eq!(
            redact_named("aws_secret_access_key", "abc"),
            "[redacted: assignment]"
        );
        assert_eq!(redact_named("path", "config.txt"), "config.txt");
        assert_eq!(redact_named("author", "Ada"), "Ada");
    }
}
