//! Small parts (issue 33 item 4): a file of the program over `MAX_LINES`
//! lines says at its top why it is long, in a line of its module doc that
//! begins `//! Long because` (the rest of the sentence is the reason).
//! Functions over 100 lines are clippy's to refuse (`too_many_lines`,
//! turned on for the workspace in Cargo.toml).
//!
//! The module doc is read with `syn` (the file's inner `doc` attributes),
//! so a `Long because` in an ordinary comment or a string does not count.

use std::path::{Path, PathBuf};

/// The most lines a file may have without saying why.
const MAX_LINES: usize = 800;

/// What the reason's line begins with.
const MARKER: &str = "Long because";

/// Every `.rs` file under the folders of the program's code, as
/// (path from the workspace root, text).
fn program_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = ["src", "lean-backend/src"]
        .iter()
        .flat_map(|dir| rust_files(&root.join(dir)))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            (rel, text)
        })
        .collect()
}

/// The `.rs` files in `dir` and the folders below it.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .flat_map(|path| match path.is_dir() {
            true => rust_files(&path),
            false => vec![path],
        })
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect()
}

/// The reason a file gives for its length: the rest of its module doc's
/// line that begins `Long because`, if it has one.
fn reason(text: &str) -> Option<String> {
    let file = syn::parse_file(text).expect("a file of the program that parses");
    file.attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                ..
            }) => Some(s.value()),
            _ => None,
        })
        .find_map(|line| {
            let line = line.trim();
            line.starts_with(MARKER)
                .then(|| line[MARKER.len()..].trim().to_string())
        })
        .filter(|rest| !rest.is_empty())
}

/// Whether `text` is over `MAX_LINES` lines without a reason at its top.
fn long_without_reason(text: &str) -> bool {
    text.lines().count() > MAX_LINES && reason(text).is_none()
}

#[test]
fn a_file_over_800_lines_says_why_at_its_top() {
    let unexplained: Vec<String> = program_files()
        .into_iter()
        .filter(|(_, text)| long_without_reason(text))
        .map(|(path, text)| format!("{path} ({} lines)", text.lines().count()))
        .collect();
    assert!(
        unexplained.is_empty(),
        "over {MAX_LINES} lines with no `//! {MARKER} …` line in the module doc \
         (split the file, or say why it is long): {unexplained:#?}"
    );
}

#[test]
fn only_a_module_doc_line_with_a_reason_counts() {
    let body = "fn f() {}\n".repeat(MAX_LINES + 1);
    // Long and silent: refused.
    assert!(long_without_reason(&body));
    // Long with a reason in its module doc: accepted.
    let said = format!("//! Parsing.\n//!\n//! {MARKER} one table holds every rule.\n{body}");
    assert!(!long_without_reason(&said));
    assert_eq!(
        reason(&said).as_deref(),
        Some("one table holds every rule.")
    );
    // The words alone, or in an ordinary comment or an item's doc: not a reason.
    for not_a_reason in [
        format!("//! {MARKER}\n{body}"),
        format!("// {MARKER} it is.\n{body}"),
        format!("/// {MARKER} it is.\nfn g() {{}}\n{body}"),
    ] {
        assert!(long_without_reason(&not_a_reason), "{not_a_reason:.40}");
    }
    // At most `MAX_LINES` lines: nothing to say.
    assert!(!long_without_reason(&"fn f() {}\n".repeat(MAX_LINES)));
}
