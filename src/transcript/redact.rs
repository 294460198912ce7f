//! `--redact`: likely secrets in a transcript masked before anything is
//! stored, so neither the screen nor any export can show them. Transcripts
//! hold whatever people pasted: API keys, tokens, bearer headers, private
//! keys, email addresses. The patterns aim at the common shapes; they are no
//! guarantee, and the README says to look before sharing.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)",
            "[redacted: private key]",
        ),
        (
            r"(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{12,}",
            "$1 [redacted]",
        ),
        (
            r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{20,})",
            "[redacted: key]",
        ),
        (
            r#"(?i)\b([A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|password|passwd)[A-Za-z0-9_]*)("?\s*[:=]\s*["']?)[^\s"',;\[]{6,}"#,
            "$1$2[redacted]",
        ),
        (
            r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b",
            "[redacted: email]",
        ),
    ]
    .into_iter()
    .map(|(p, with)| (Regex::new(p).expect("a valid pattern"), with))
    .collect()
});

/// The text with likely secrets replaced by `[redacted: …]`.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for (pattern, with) in PATTERNS.iter() {
        if let Cow::Owned(s) = pattern.replace_all(&out, *with) {
            out = Cow::Owned(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn likely_secrets_are_masked_and_ordinary_text_is_not() {
        let cases = [
            (
                "key sk-proj-abcdefghijklmnop1234 here",
                "key [redacted: key] here",
            ),
            (
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc",
                "Authorization: Bearer [redacted]",
            ),
            (
                "export GITHUB_TOKEN=ghp_0123456789abcdefghijABCD",
                "export GITHUB_TOKEN=[redacted: key]",
            ),
            ("password: hunter2hunter2", "password: [redacted]"),
            (
                "{\"api_key\": \"abc123def456\"}",
                "{\"api_key\": \"[redacted]\"}",
            ),
            (
                "write to ada@example.org now",
                "write to [redacted: email] now",
            ),
            ("AKIAABCDEFGHIJKLMNOP", "[redacted: key]"),
            (
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----",
                "[redacted: private key]",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(redact(input), expected, "{input}");
        }
        let plain = "cargo test failed: cannot find value `limit` in src/lib.rs:12";
        assert_eq!(redact(plain), plain);
    }
}
