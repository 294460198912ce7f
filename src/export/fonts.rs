//! The fonts a figure names, and what to say when none of them is here:
//! the SVG's font list, the families PNG, PDF and `--embed-fonts` look
//! up, and the advice for missing characters.

use unicode_width::UnicodeWidthChar;

/// Latin from a monospace font; CJK from whichever of these is installed.
/// `FONT_FAMILIES` is the same list without the generic `monospace`.
pub const FONT_FAMILY: &str = "'DejaVu Sans Mono', 'Noto Sans Mono CJK SC', 'Noto Sans CJK SC', \
     'WenQuanYi Micro Hei Mono', 'Source Han Mono', 'Sarasa Mono SC', monospace";

pub const FONT_FAMILIES: [&str; 6] = [
    "DejaVu Sans Mono",
    "Noto Sans Mono CJK SC",
    "Noto Sans CJK SC",
    "WenQuanYi Micro Hei Mono",
    "Source Han Mono",
    "Sarasa Mono SC",
];

/// What to say when no installed font has the characters `missing`: the
/// package to install when they are CJK.
pub fn missing_message(missing: &[char]) -> String {
    let shown: Vec<String> = missing.iter().take(8).map(char::to_string).collect();
    let shown = shown.join(" ");
    let more = if missing.len() > 8 { " …" } else { "" };
    let cjk = missing.iter().any(|c| c.width() == Some(2));
    let advice = if cjk {
        "no CJK font is installed; install the package fonts-noto-cjk \
         (apt-get install fonts-noto-cjk) or export with --lang en"
    } else {
        "install a font that has them"
    };
    format!(
        "cannot draw {} character(s) of the figure with the installed fonts ({shown}{more}): {advice}",
        missing.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_list_and_the_families_looked_up_for_embedding_agree() {
        assert_eq!(
            FONT_FAMILY,
            FONT_FAMILIES
                .iter()
                .map(|f| format!("'{f}'"))
                .chain(["monospace".to_string()])
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}
