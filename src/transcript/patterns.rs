//! Secret-scanning rules written for other regex engines, read with
//! Rust's `regex`: gitleaks' (Go's RE2) and Titus's (Hyperscan), and the
//! Shannon entropy both scanners filter their findings by.

use std::borrow::Cow;

/// A Go pattern in Rust's syntax, meaning what it means in Go:
/// - Go's `\w`, `\d`, `\s` and `\b` are ASCII; Rust's are Unicode (and
///   `[\w-]{50,1000}` in Unicode outgrows any size limit), so they become
///   ASCII classes (`[[:word:]]`, `(?-u:\b)`).
/// - Go takes a `{` that starts no repetition (`{\d+}`, `${{ env }}`) as a
///   literal; Rust wants it escaped. Braces of a repetition (`{3}`, `{2,}`,
///   `{1,5}`) and everything in a class stay as they are.
pub(crate) fn go_syntax(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains(['{', '}', '\\']) {
        return Cow::Borrowed(pattern);
    }
    let bytes = pattern.as_bytes();
    let mut out = String::with_capacity(pattern.len() + 8);
    let (mut i, mut in_class, mut open_rep) = (0, false, false);
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\\' if i + 1 < bytes.len() && ascii_class(bytes[i + 1], in_class).is_some() => {
                out.push_str(ascii_class(bytes[i + 1], in_class).unwrap_or_default());
                i += 2;
                continue;
            }
            b'\\' => {
                let end = (i + 2).min(bytes.len());
                // A char boundary: escapes are ASCII, the next byte may not be.
                let end = (end..=bytes.len())
                    .find(|&e| pattern.is_char_boundary(e))
                    .unwrap_or(bytes.len());
                out.push_str(&pattern[i..end]);
                i = end;
                continue;
            }
            b'[' if !in_class => {
                in_class = true;
                out.push('[');
                i += 1;
                // A `]` (after an optional `^`) first in a class is literal.
                if bytes.get(i) == Some(&b'^') {
                    out.push('^');
                    i += 1;
                }
                if bytes.get(i) == Some(&b']') {
                    out.push(']');
                    i += 1;
                }
                continue;
            }
            b']' if in_class => in_class = false,
            b'{' if !in_class => {
                let rest = &pattern[i + 1..];
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                let after = &rest[digits..];
                let tail = after
                    .strip_prefix(',')
                    .map(|t| &t[t.bytes().take_while(u8::is_ascii_digit).count()..]);
                let repetition = digits > 0
                    && (after.starts_with('}') || tail.is_some_and(|t| t.starts_with('}')));
                if repetition {
                    open_rep = true;
                } else {
                    out.push_str("\\{");
                    i += 1;
                    continue;
                }
            }
            b'}' if !in_class => {
                if !open_rep {
                    out.push_str("\\}");
                    i += 1;
                    continue;
                }
                open_rep = false;
            }
            _ => {}
        }
        let end = (i + 1..=bytes.len())
            .find(|&e| pattern.is_char_boundary(e))
            .unwrap_or(bytes.len());
        out.push_str(&pattern[i..end]);
        i = end;
    }
    Cow::Owned(out)
}

/// Go's ASCII meaning of a Perl class `\c`, in a class or outside one
/// (a space as `\x20`: in `(?x)` a literal one would be ignored).
fn ascii_class(c: u8, in_class: bool) -> Option<&'static str> {
    Some(match (c, in_class) {
        (b'w', false) => "[[:word:]]",
        (b'w', true) => "[:word:]",
        (b'W', false) => "[^[:word:]]",
        (b'W', true) => "[:^word:]",
        (b'd', false) => "[0-9]",
        (b'd', true) => "0-9",
        (b'D', false) => "[^0-9]",
        (b'D', true) => "[:^digit:]",
        (b's', false) => "[\\t\\n\\f\\r\\x20]",
        (b's', true) => "\\t\\n\\f\\r\\x20",
        (b'S', false) => "[^\\t\\n\\f\\r\\x20]",
        (b'b', false) => "(?-u:\\b)",
        (b'B', false) => "(?-u:\\B)",
        _ => return None,
    })
}

/// Shannon entropy in bits per character, over the byte length as gitleaks
/// computes it.
pub(crate) fn entropy(text: &str) -> f64 {
    if text.is_empty() {
        return 0.0;
    }
    let mut counts: std::collections::HashMap<char, usize> = Default::default();
    for c in text.chars() {
        *counts.entry(c).or_default() += 1;
    }
    let n = text.len() as f64;
    counts
        .values()
        .map(|&count| {
            let p = count as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_literal_braces_are_escaped_and_repetitions_kept() {
        assert_eq!(go_syntax(r"^\$(?:x+|{x+})$"), r"^\$(?:x+|\{x+\})$");
        assert_eq!(go_syntax(r"[a-z]{3,}x{2}y{1,5}"), r"[a-z]{3,}x{2}y{1,5}");
        assert_eq!(go_syntax(r"\b[\w.-]\d"), r"(?-u:\b)[[:word:].-][0-9]");
        assert_eq!(go_syntax(r"[{}]\{a"), r"[{}]\{a");
        assert_eq!(go_syntax(r"^\{\{[ \t]*x}}$"), r"^\{\{[ \t]*x\}\}$");
    }

    #[test]
    fn entropy_is_gitleaks_shannon_entropy() {
        assert_eq!(entropy(""), 0.0);
        assert_eq!(entropy("aaaa"), 0.0);
        assert!((entropy("abcd") - 2.0).abs() < 1e-9);
    }
}
