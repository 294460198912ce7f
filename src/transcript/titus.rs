//! The second rule set `--redact` reads: Titus's (Praetorian's secret
//! scanner, Nosey Parker's successor), vendored unchanged in `titus/rules/`
//! with its Apache 2.0 licence. It covers formats gitleaks' default list
//! leaves out (Google OAuth access tokens `ya29.`, Azure connection
//! strings with `AccountKey=`, …) and ends its patterns at any character
//! that cannot continue the secret, so a key followed by `.` or `,` in a
//! sentence is found.
//!
//! Read as Titus reads them (`pkg/matcher/postfilter.go`): the secret is
//! the group named `token`, else the first named group, else the first
//! group, else the whole match; it must have more than `min_entropy` bits
//! per character and meet `pattern_requirements`. A rule whose categories
//! do not call what it finds a secret (public identifiers, bucket names,
//! hashes) is left out.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};
use serde::Deserialize;

// Every vendored rule file, by name: `FILES`.
include!("titus/files.rs");

#[derive(Deserialize)]
struct RulesFile {
    rules: Vec<RuleYaml>,
}

#[derive(Deserialize)]
pub(crate) struct RuleYaml {
    pub(crate) name: String,
    pub(crate) id: String,
    pattern: String,
    #[serde(default)]
    categories: Option<Vec<String>>,
    #[serde(default)]
    min_entropy: f64,
    #[serde(default)]
    pattern_requirements: Option<Requirements>,
    #[serde(default)]
    pub(crate) examples: Vec<String>,
}

#[derive(Deserialize, Default)]
struct Requirements {
    #[serde(default)]
    min_digits: usize,
    #[serde(default)]
    min_uppercase: usize,
    #[serde(default)]
    min_lowercase: usize,
    #[serde(default)]
    min_special_chars: usize,
    #[serde(default)]
    special_chars: Option<String>,
    #[serde(default)]
    ignore_if_contains: Vec<String>,
}

impl Requirements {
    /// `passesPatternRequirements`.
    fn met_by(&self, secret: &str) -> bool {
        let lower = secret.to_lowercase();
        if self
            .ignore_if_contains
            .iter()
            .any(|s| lower.contains(&s.to_lowercase()))
        {
            return false;
        }
        let special = self
            .special_chars
            .as_deref()
            .unwrap_or("!@#$%^&*()_+-=[]{}|;:'\",.<>?/\\`~");
        let (mut digits, mut upper, mut lower, mut other) = (0, 0, 0, 0);
        for c in secret.chars() {
            match c {
                c if c.is_numeric() => digits += 1,
                c if c.is_uppercase() => upper += 1,
                c if c.is_lowercase() => lower += 1,
                c if special.contains(c) => other += 1,
                _ => {}
            }
        }
        digits >= self.min_digits
            && upper >= self.min_uppercase
            && lower >= self.min_lowercase
            && other >= self.min_special_chars
    }
}

/// One rule, compiled.
pub(crate) struct Rule {
    /// The rule's name as a label: `google-oauth-access-token`.
    pub(crate) label: String,
    #[cfg_attr(not(test), allow(dead_code))] // The tests name rules by id.
    pub(crate) id: String,
    regex: Regex,
    min_entropy: f64,
    requirements: Requirements,
    /// The fakes of its format the rule ships, for the tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) examples: Vec<String>,
}

pub(crate) struct Rules {
    pub(crate) rules: Vec<Rule>,
    /// All patterns at once: which rules can match a text at all.
    any: RegexSet,
    /// Rules that did not compile in Rust's syntax, with why (the tests
    /// keep them few).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) skipped: Vec<(String, String)>,
}

/// A Titus pattern (Hyperscan's syntax) in Rust's: `(?#…)` comments are
/// dropped (Rust has `#` comments in `(?x)` only), then Go's ASCII
/// classes and literal braces as for gitleaks.
fn rust_syntax(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(at) = rest.find("(?#") {
        // `\(?#` is an escaped paren followed by `?#`, not a comment.
        let escaped = rest[..at].chars().rev().take_while(|&c| c == '\\').count() % 2 == 1;
        if escaped {
            out.push_str(&rest[..at + 3]);
            rest = &rest[at + 3..];
            continue;
        }
        out.push_str(&rest[..at]);
        rest = match rest[at..].find(')') {
            Some(end) => &rest[at + end + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    super::patterns::go_syntax(&out).into_owned()
}

fn label(name: &str) -> String {
    let mut out = String::new();
    for word in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        if !word.is_empty() {
            if !out.is_empty() {
                out.push('-');
            }
            out.push_str(&word.to_ascii_lowercase());
        }
    }
    out
}

fn compile(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .size_limit(1 << 24)
        .build()
        .map_err(|e| e.to_string())
}

/// Every rule of `files` that finds a secret.
pub(crate) fn load(files: &[(&str, &str)]) -> Result<Rules, String> {
    let mut rules = Vec::new();
    let mut skipped = Vec::new();
    for (name, text) in files {
        let file: RulesFile = serde_saphyr::from_str(text).map_err(|e| format!("{name}: {e}"))?;
        for rule in file.rules {
            let secret = rule
                .categories
                .as_ref()
                .is_none_or(|c| c.iter().any(|c| c == "secret"));
            if !secret {
                continue;
            }
            match compile(&rust_syntax(&rule.pattern)) {
                Ok(regex) => rules.push(Rule {
                    label: label(&rule.name),
                    id: rule.id,
                    regex,
                    min_entropy: rule.min_entropy,
                    requirements: rule.pattern_requirements.unwrap_or_default(),
                    examples: rule.examples,
                }),
                Err(e) => skipped.push((rule.id, e)),
            }
        }
    }
    let any = RegexSetBuilder::new(rules.iter().map(|r| r.regex.as_str()))
        .size_limit(1 << 28)
        .dfa_size_limit(1 << 24)
        .build()
        .map_err(|e| e.to_string())?;
    Ok(Rules {
        rules,
        any,
        skipped,
    })
}

pub(crate) static RULES: LazyLock<Rules> =
    LazyLock::new(|| load(FILES).expect("the vendored Titus rules load (tested)"));

impl Rules {
    /// Each secret `text` holds by these rules: (start, end, rule index).
    pub(crate) fn find(&self, text: &str, mut found: impl FnMut(usize, usize, usize)) {
        for index in self.any.matches(text).iter() {
            let rule = &self.rules[index];
            for caps in rule.regex.captures_iter(text) {
                let names = rule.regex.capture_names();
                let named: Vec<_> = names
                    .enumerate()
                    .filter_map(|(g, n)| Some((g, n?)))
                    .collect();
                let group = named
                    .iter()
                    .find(|(_, n)| n.eq_ignore_ascii_case("token"))
                    .or(named.first())
                    .map(|&(g, _)| g)
                    .unwrap_or(usize::from(caps.len() > 1));
                let Some(secret) = caps.get(group) else {
                    continue;
                };
                let value = secret.as_str();
                if rule.min_entropy != 0.0 && super::patterns::entropy(value) <= rule.min_entropy {
                    continue;
                }
                if !rule.requirements.met_by(value) {
                    continue;
                }
                found(secret.start(), secret.end(), index);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_dropped_and_escaped_parens_kept() {
        assert_eq!(rust_syntax(r"a(?# why )b"), "ab");
        assert_eq!(rust_syntax(r"\(?#x"), r"\(?#x");
        assert_eq!(
            label("Google OAuth Access Token"),
            "google-oauth-access-token"
        );
    }

    #[test]
    fn every_vendored_secret_rule_loads_and_almost_all_compile() {
        let rules = &*RULES;
        assert!(rules.rules.len() > 300, "{}", rules.rules.len());
        // Every pattern compiles in Rust's syntax (none uses look-around
        // or back references).
        assert!(rules.skipped.is_empty(), "{:?}", rules.skipped);
        for id in ["np.google.4", "np.google.5", "np.sendgrid.1", "np.azure.1"] {
            assert!(rules.rules.iter().any(|r| r.id == id), "{id}");
        }
    }

    /// Each rule's pattern, in Rust's syntax, matches each of its own
    /// examples (the fakes of its format that Titus ships), as Titus's
    /// `rules check` does: the translation keeps what the patterns mean.
    /// (Some examples are placeholders its entropy filter then leaves, as
    /// `--redact` does; `tests/secrets/fake-keys.tsv` checks the masking.)
    #[test]
    fn every_rule_matches_its_own_examples() {
        let rules = &*RULES;
        let mut missed = Vec::new();
        // Examples that do not fit their own pattern as written (a
        // lowercase example of an uppercase class, a keyword the example
        // lacks): vendored unchanged, named here so any other is a fault.
        let known = [
            "kingfisher.airtable.2",
            "np.amplitude.1",
            "kingfisher.contentful.1",
            "kingfisher.contentful.2",
            "kingfisher.curl.2",
            "np.cypress.1",
            "np.redis.1",
            "np.twitter.3",
        ];
        for rule in &rules.rules {
            for example in &rule.examples {
                if !rule.regex.is_match(example) && !known.contains(&rule.id.as_str()) {
                    missed.push(format!("{}: {example:?}", rule.id));
                }
            }
        }
        assert!(missed.is_empty(), "{}\n{}", missed.len(), missed.join("\n"));
    }
}
