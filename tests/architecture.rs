//! The import graph of `src/`, file by file, and the cycles in it.
//!
//! A file A *depends on* a file B when A names an item of B through a
//! path. This test reads every `.rs` file of the library (not `main.rs`:
//! the binary is a crate of its own that nothing in the library can name)
//! and builds that graph by these rules:
//!
//! - **What is read.** Comments (doc comments too: an intra-doc link is no
//!   import), string and char literals are skipped. Every `use` tree is
//!   expanded (`use crate::a::{b, c::D}` is two paths), and every other path
//!   in the code (`crate::i18n::X`, `super::error(..)`, `frame::draw(..)`)
//!   counts as well. Items under `#[cfg(test)]` (the unit-test modules)
//!   are left out: they stand above their file as a file of `tests/`
//!   does, and are no part of what the file needs to build.
//! - **Where a path starts.** `crate::` is the crate root, `super::` and
//!   `self::` are relative to the module the path is written in (an inline
//!   `mod tests { .. }` is a module of its own, so its `super::` is the
//!   file). A path may also start with a child module the file declares
//!   (`mod frame;` then `frame::draw`) or with a name that a `use` in the
//!   file bound to a module (`use crate::view;` then `view::quiz::..`).
//!   Anything else (`std::`, `ratatui::`, a type's `Lang::Zh`) is outside
//!   the crate's files and ignored.
//! - **Which file a path lands in.** The longest prefix of the resolved path
//!   that is a module with a file (`src/a/b.rs` or `src/a/b/mod.rs`) names
//!   the file, and the first segment after it is the item. If that file
//!   does not define the item but re-exports it (`pub use frame::draw;`,
//!   `pub use body::{Kind as K}`, or a glob `pub use x::*` whose file
//!   declares the name), the path is followed through the re-export to the
//!   file that does: so a `mod.rs` re-export counts as the file that
//!   defines the item, never as the `mod.rs`. Importing a module itself
//!   (`use crate::view;`) is no edge by itself; the paths through it are.
//! - **What is not an edge.** `mod child;` (declaring a file is structure,
//!   not use); a path back into the same file. A `pub use` is an edge of
//!   its file (re-exports included), and paths through it are followed to
//!   the defining file as well.
//!
//! A cycle is a strongly connected set of two or more files. The test
//! fails listing each one with the edges that make it, `file:line path`.
//! Macros used by their bare name (`#[macro_export]`) are not seen; none
//! of the crate's macros is used outside its file today.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

// ---------------------------------------------------------------- lexer

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

/// Tokens with their 1-based line; comments, strings, chars, lifetimes and
/// numbers are dropped.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let n = c.len();
    let ident_start = |ch: char| ch == '_' || ch.is_alphabetic();
    let ident_char = |ch: char| ch == '_' || ch.is_alphanumeric();
    while i < n {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < n && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < n {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some(after) = raw_string_end(&c, i) {
            line += c[i..after].iter().filter(|&&x| x == '\n').count();
            i = after;
        } else if ch == '"' || (matches!(ch, 'b' | 'c') && c.get(i + 1) == Some(&'"')) {
            i += if ch == '"' { 1 } else { 2 };
            while i < n && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if i < n && c[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if ch == '\'' || (ch == 'b' && c.get(i + 1) == Some(&'\'')) {
            let q = if ch == '\'' { i } else { i + 1 };
            if c.get(q + 1) == Some(&'\\') {
                // An escaped char: up to the closing quote.
                i = q + 2;
                while i < n && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(q + 2) == Some(&'\'') {
                i = q + 3;
            } else {
                // A lifetime or a label: skip the quote and its name.
                i = q + 1;
                while i < n && ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ch.is_ascii_digit() {
            while i < n && (ident_char(c[i]) || c[i] == '.' && c.get(i + 1) != Some(&'.')) {
                i += 1;
            }
        } else if ident_start(ch) {
            let mut s = i;
            if ch == 'r' && c.get(i + 1) == Some(&'#') {
                s = i + 2;
            }
            let mut e = s;
            while e < n && ident_char(c[e]) {
                e += 1;
            }
            out.push((Tok::Ident(c[s..e].iter().collect()), line));
            i = e;
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// Where a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starting at `i` ends.
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if c.get(j) == Some(&'b') || c.get(j) == Some(&'c') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    if i > 0 && (c[i - 1] == '_' || c[i - 1].is_alphanumeric()) {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

// ---------------------------------------------------------------- parse

/// One path a `use` imports.
#[derive(Debug, Clone)]
struct UsePath {
    segs: Vec<String>,
    /// The name it is bound to (the last segment, or its `as` name);
    /// `None` for a glob.
    name: Option<String>,
    public: bool,
    /// The module (inline modules included) it was written in, relative
    /// to the file's module.
    inline: Vec<String>,
    line: usize,
}

/// A path written in code (not in a `use`).
#[derive(Debug, Clone)]
struct CodePath {
    segs: Vec<String>,
    inline: Vec<String>,
    line: usize,
}

#[derive(Debug, Default)]
struct Parsed {
    children: BTreeSet<String>,
    uses: Vec<UsePath>,
    paths: Vec<CodePath>,
    /// Items the file declares at its top level (`fn x`, `struct X`, …).
    items: BTreeSet<String>,
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

fn parse(src: &str) -> Parsed {
    let toks = without_test_items(lex(src));
    let mut p = Parsed::default();
    let mut depth = 0usize;
    // (name, brace depth inside it)
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let here: Vec<String> = inline.iter().map(|(m, _)| m.clone()).collect();
        match &toks[i].0 {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(k) if k == "mod" => match (ident(toks.get(i + 1)), toks.get(i + 2)) {
                (Some(name), Some((Tok::Punct(';'), _))) => {
                    if inline.is_empty() {
                        p.children.insert(name.to_string());
                    }
                    i += 3;
                }
                (Some(name), Some((Tok::Punct('{'), _))) => {
                    depth += 1;
                    inline.push((name.to_string(), depth));
                    i += 3;
                }
                _ => i += 1,
            },
            Tok::Ident(k) if k == "use" => {
                let public = is_public(&toks, i);
                let line = toks[i].1;
                let mut j = i + 1;
                let mut out = Vec::new();
                use_tree(&toks, &mut j, Vec::new(), &mut out);
                for (segs, name) in out {
                    p.uses.push(UsePath {
                        segs,
                        name,
                        public,
                        inline: here.clone(),
                        line,
                    });
                }
                while j < toks.len() && toks[j].0 != Tok::Punct(';') {
                    j += 1;
                }
                i = j + 1;
            }
            Tok::Ident(k) => {
                if inline.is_empty()
                    && depth == 0
                    && matches!(
                        k.as_str(),
                        "fn" | "struct" | "enum" | "const" | "static" | "type" | "trait" | "union"
                    )
                    && let Some(name) = ident(toks.get(i + 1))
                {
                    p.items.insert(name.to_string());
                }
                let after_sep = i > 0 && toks[i - 1].0 == Tok::Sep;
                if !after_sep && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Sep) {
                    let mut segs = vec![k.clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(|t| &t.0) == Some(&Tok::Sep) {
                        match ident(toks.get(j + 1)) {
                            Some(s) => {
                                segs.push(s.to_string());
                                j += 2;
                            }
                            None => break,
                        }
                    }
                    p.paths.push(CodePath {
                        segs,
                        inline: here,
                        line: toks[i].1,
                    });
                    i = j;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    p
}

/// The tokens without the items under `#[cfg(test)]`: a unit-test module
/// stands above its file as a file of `tests/` would, it is no part of
/// what the file needs.
fn without_test_items(toks: Vec<(Tok, usize)>) -> Vec<(Tok, usize)> {
    let attr: Vec<Tok> = ["#", "[", "cfg", "(", "test", ")", "]"]
        .iter()
        .map(|t| match *t {
            "cfg" | "test" => Tok::Ident(t.to_string()),
            p => Tok::Punct(p.chars().next().unwrap()),
        })
        .collect();
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let at_attr = toks.len() - i >= attr.len()
            && toks[i..i + attr.len()]
                .iter()
                .zip(&attr)
                .all(|(t, a)| t.0 == *a);
        if !at_attr {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        // Skip the item: up to its `;` or the `}` that closes its body.
        i += attr.len();
        let mut depth = 0i32;
        while i < toks.len() {
            let t = &toks[i].0;
            i += 1;
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']') => depth -= 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => break,
                _ => {}
            }
        }
    }
    out
}

/// `pub use`, `pub(crate) use`, `pub(super) use`, `pub(in path) use`.
fn is_public(toks: &[(Tok, usize)], use_at: usize) -> bool {
    let mut j = use_at;
    if j >= 1 && toks[j - 1].0 == Tok::Punct(')') {
        while j > 0 && toks[j - 1].0 != Tok::Punct('(') {
            j -= 1;
        }
        j = j.saturating_sub(1);
    }
    j >= 1 && ident(toks.get(j - 1)) == Some("pub")
}

/// Expand a use tree at `j` into (path, bound name) pairs.
fn use_tree(
    toks: &[(Tok, usize)],
    j: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut segs = prefix;
    if toks.get(*j).map(|t| &t.0) == Some(&Tok::Sep) {
        *j += 1;
    }
    loop {
        match toks.get(*j).map(|t| &t.0) {
            Some(Tok::Ident(s)) if s == "self" && !segs.is_empty() => {
                // `a::{self, ..}`: the module a itself.
                *j += 1;
                let name = bound_name(toks, j).or_else(|| segs.last().cloned());
                out.push((segs, name));
                return;
            }
            Some(Tok::Ident(s)) => {
                segs.push(s.clone());
                *j += 1;
                if toks.get(*j).map(|t| &t.0) == Some(&Tok::Sep) {
                    *j += 1;
                    continue;
                }
                let name = bound_name(toks, j).or_else(|| segs.last().cloned());
                out.push((segs, name));
                return;
            }
            Some(Tok::Punct('*')) => {
                *j += 1;
                out.push((segs, None));
                return;
            }
            Some(Tok::Punct('{')) => {
                *j += 1;
                loop {
                    match toks.get(*j).map(|t| &t.0) {
                        Some(Tok::Punct('}')) => {
                            *j += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *j += 1,
                        None => return,
                        _ => use_tree(toks, j, segs.clone(), out),
                    }
                }
            }
            _ => return,
        }
    }
}

fn bound_name(toks: &[(Tok, usize)], j: &mut usize) -> Option<String> {
    if ident(toks.get(*j)) == Some("as") {
        let name = ident(toks.get(*j + 1)).map(str::to_string);
        *j += 2;
        return name;
    }
    None
}

// ---------------------------------------------------------------- graph

/// `src/view/frame.rs` → `["view", "frame"]`; `src/lib.rs` → `[]`.
fn module_of(file: &str) -> Vec<String> {
    let rel = file.strip_prefix("src/").unwrap_or(file);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(segs.last().map(String::as_str), Some("mod" | "lib")) {
        segs.pop();
    }
    segs
}

#[derive(Debug, Clone)]
struct Edge {
    from: String,
    to: String,
    line: usize,
    path: String,
}

struct Graph {
    files: BTreeMap<Vec<String>, String>,
    parsed: BTreeMap<String, Parsed>,
}

impl Graph {
    fn new(sources: &BTreeMap<String, String>) -> Graph {
        let files = sources.keys().map(|f| (module_of(f), f.clone())).collect();
        let parsed = sources.iter().map(|(f, s)| (f.clone(), parse(s))).collect();
        Graph { files, parsed }
    }

    /// The absolute module path `segs` means, written in `file` inside
    /// its inline modules `inline`; `None` when it is outside the crate.
    fn absolute(&self, file: &str, inline: &[String], segs: &[String]) -> Option<Vec<String>> {
        let p = &self.parsed[file];
        let mut here = module_of(file);
        here.extend(inline.iter().cloned());
        let first = segs.first()?.as_str();
        match first {
            "crate" => Some(segs[1..].to_vec()),
            "self" => Some([here, segs[1..].to_vec()].concat()),
            "super" => {
                let mut base = here;
                let mut k = 0;
                while segs.get(k).map(String::as_str) == Some("super") {
                    base.pop()?;
                    k += 1;
                }
                Some([base, segs[k..].to_vec()].concat())
            }
            _ if p.children.contains(first) => Some([module_of(file), segs.to_vec()].concat()),
            _ => {
                // A name a `use` of this file bound to a module of the crate.
                let u = p
                    .uses
                    .iter()
                    .find(|u| u.name.as_deref() == Some(first) && u.segs.first() != segs.first())?;
                let target = self.absolute(file, &u.inline, &u.segs)?;
                if !self.files.contains_key(&target) {
                    return None;
                }
                Some([target, segs[1..].to_vec()].concat())
            }
        }
    }

    /// The file that defines what the absolute path `abs` names,
    /// following `pub use` re-exports; `None` if it is only a module.
    fn file_of(&self, abs: &[String], hops: usize) -> Option<String> {
        let k = (0..=abs.len())
            .rev()
            .find(|&k| self.files.contains_key(&abs[..k]))?;
        let file = &self.files[&abs[..k]];
        let item = abs.get(k)?;
        let p = &self.parsed[file];
        if hops < 8 && !p.items.contains(item) {
            for u in p.uses.iter().filter(|u| u.public) {
                let through = match &u.name {
                    Some(name) if name == item => self.absolute(file, &u.inline, &u.segs),
                    None => self
                        .absolute(file, &u.inline, &u.segs)
                        .filter(|m| {
                            self.files
                                .get(m)
                                .is_some_and(|f| self.parsed[f].items.contains(item))
                        })
                        .map(|m| [m, vec![item.clone()]].concat()),
                    _ => None,
                };
                if let Some(through) = through {
                    let rest = &abs[k + 1..];
                    if let Some(f) = self.file_of(&[through, rest.to_vec()].concat(), hops + 1) {
                        return Some(f);
                    }
                }
            }
        }
        Some(file.clone())
    }

    /// Edges between the crate's top modules (`wire`, `trace`, …): a path
    /// is an edge to the module it is written through, re-exports not
    /// followed, so `crate::wire::Provider` ties to `wire` wherever
    /// `Provider` is defined.
    fn module_edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        for (file, p) in &self.parsed {
            let Some(from) = module_of(file).first().cloned() else {
                continue;
            };
            let written = p
                .uses
                .iter()
                .map(|u| (&u.segs, &u.inline, u.line))
                .chain(p.paths.iter().map(|c| (&c.segs, &c.inline, c.line)));
            for (segs, inline, line) in written {
                let Some(to) = self
                    .absolute(file, inline, segs)
                    .and_then(|a| a.first().cloned())
                else {
                    continue;
                };
                if to != from && self.files.contains_key(std::slice::from_ref(&to)) {
                    edges.push(Edge {
                        from: from.clone(),
                        to,
                        line,
                        path: format!("{file}: {}", segs.join("::")),
                    });
                }
            }
        }
        edges
    }

    fn edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        for (file, p) in &self.parsed {
            let mut add = |segs: &[String], inline: &[String], line: usize| {
                let Some(abs) = self.absolute(file, inline, segs) else {
                    return;
                };
                if let Some(to) = self.file_of(&abs, 0)
                    && &to != file
                {
                    edges.push(Edge {
                        from: file.clone(),
                        to,
                        line,
                        path: segs.join("::"),
                    });
                }
            };
            // A re-export is an edge too: a file that passes an item on
            // cannot be built without the file that defines it.
            for u in &p.uses {
                match u.name {
                    Some(_) => add(&u.segs, &u.inline, u.line),
                    // A glob takes every item of its module's file.
                    None => add(
                        &[&u.segs[..], &["*".to_string()]].concat(),
                        &u.inline,
                        u.line,
                    ),
                }
            }
            for c in &p.paths {
                add(&c.segs, &c.inline, c.line);
            }
        }
        edges
    }
}

/// Strongly connected sets of two or more files (Tarjan), each sorted.
fn cycles(edges: &[Edge]) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in edges {
        next.entry(&e.from).or_default().insert(&e.to);
        next.entry(&e.to).or_default();
    }
    struct State<'a> {
        next: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for &w in &s.next[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                set.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.out.push(set);
            }
        }
    }
    let mut s = State {
        next: &next,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in next.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// A cycle, and the edges inside it (the first place of each pair).
fn describe(set: &[String], edges: &[Edge]) -> String {
    let mut seen = BTreeSet::new();
    let mut text = format!("{} files: {}\n", set.len(), set.join(", "));
    for e in edges {
        if set.contains(&e.from) && set.contains(&e.to) && seen.insert((&e.from, &e.to)) {
            text += &format!(
                "    {} → {}   ({}:{} {})\n",
                e.from, e.to, e.from, e.line, e.path
            );
        }
    }
    text
}

fn library_sources() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel != "src/main.rs" {
                    out.insert(rel, std::fs::read_to_string(&path).unwrap());
                }
            }
        }
    }
    out
}

#[test]
fn no_import_cycles_between_files() {
    let graph = Graph::new(&library_sources());
    let edges = graph.edges();
    let found = cycles(&edges);
    let report: String = found.iter().map(|set| describe(set, &edges)).collect();
    assert!(
        report.is_empty(),
        "import cycles between files of src/:\n{report}"
    );
}

/// The same between the crate's top modules, every `use` and path counted
/// as written (re-exports included): `scenario` → `wire` → `trace` →
/// `scenario` was such a cycle while no two files made one.
#[test]
fn no_import_cycles_between_modules() {
    let graph = Graph::new(&library_sources());
    let edges = graph.module_edges();
    let found = cycles(&edges);
    let report: String = found.iter().map(|set| describe(set, &edges)).collect();
    assert!(
        report.is_empty(),
        "import cycles between the modules of src/:\n{report}"
    );
}

/// The README's map of the code ("How it is built") names every file and
/// folder directly under src/, so a newcomer finds each in it (issue 23).
#[test]
fn the_readmes_map_names_every_file_and_folder_of_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme
        .find("## How it is built")
        .expect("the map's section");
    let map = &readme[start..];
    let map = &map[..map[3..].find("\n## ").map_or(map.len(), |end| end + 3)];
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("src")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let named = if entry.file_type().unwrap().is_dir() {
            format!("`src/{name}/`")
        } else {
            format!("`src/{name}`")
        };
        if !map.contains(&named) {
            missing.push(named);
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "not in README's map: {missing:?}");
}

/// The engine knows no language (issue 23): host and tool texts are facts
/// (`trace::Said`) worded by the caller.
#[test]
fn the_engine_imports_no_i18n() {
    let graph = Graph::new(&library_sources());
    let bad: Vec<String> = graph
        .edges()
        .into_iter()
        .filter(|e| e.from.starts_with("src/engine/") && e.to.starts_with("src/i18n"))
        .map(|e| format!("{}:{} {}", e.from, e.line, e.path))
        .collect();
    assert!(
        bad.is_empty(),
        "the engine imports i18n:\n{}",
        bad.join("\n")
    );
}

// ---------------------------------------------------------------- the rules, on small trees

fn graph_of(files: &[(&str, &str)]) -> Vec<(String, String)> {
    let sources = files
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    let mut pairs: Vec<(String, String)> = Graph::new(&sources)
        .edges()
        .into_iter()
        .map(|e| (e.from, e.to))
        .collect();
    pairs.sort();
    pairs.dedup();
    pairs
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn a_use_and_a_path_in_code_are_edges_and_make_a_cycle() {
    let files = [
        ("src/lib.rs", "pub mod a; pub mod b;"),
        (
            "src/a.rs",
            "use crate::b::{Thing, other::{X}};\npub struct A;",
        ),
        (
            "src/b.rs",
            "pub struct Thing; fn f() { let _ = crate::a::A; }",
        ),
    ];
    assert_eq!(
        graph_of(&files),
        [pair("src/a.rs", "src/b.rs"), pair("src/b.rs", "src/a.rs")]
    );
    let sources = files
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    let found = cycles(&Graph::new(&sources).edges());
    assert_eq!(
        found,
        [vec!["src/a.rs".to_string(), "src/b.rs".to_string()]]
    );
}

#[test]
fn comments_strings_and_outside_crates_are_no_edges() {
    let files = [
        ("src/lib.rs", "pub mod a; pub mod b;"),
        (
            "src/a.rs",
            "//! see [crate::b::B]\n/* crate::b::B */ fn f() { let s = \"crate::b::B\"; \
             let r = r#\"crate::b::B\"#; let c = '\"'; std::mem::drop(s); b::B; }",
        ),
        ("src/b.rs", "pub struct B;"),
    ];
    assert_eq!(graph_of(&files), []);
}

#[test]
fn a_mod_rs_reexport_is_followed_to_the_file_that_defines_it() {
    let files = [
        ("src/lib.rs", "pub mod view; pub mod app;"),
        (
            "src/view/mod.rs",
            "mod frame; mod glob; pub use frame::{draw as paint}; pub use glob::*;\n\
             pub struct Limits;",
        ),
        ("src/view/frame.rs", "pub fn draw() {}"),
        ("src/view/glob.rs", "pub fn globbed() {}"),
        ("src/app.rs", "use crate::view::{paint, globbed};"),
    ];
    assert_eq!(
        graph_of(&files),
        [
            pair("src/app.rs", "src/view/frame.rs"),
            pair("src/app.rs", "src/view/glob.rs"),
            pair("src/view/mod.rs", "src/view/frame.rs"),
            pair("src/view/mod.rs", "src/view/glob.rs"),
        ]
    );
    // Naming an item of the mod.rs itself is an edge to the mod.rs.
    let files = [
        ("src/lib.rs", "pub mod view; pub mod app;"),
        (
            "src/view/mod.rs",
            "mod frame; pub use frame::draw; pub struct Limits;",
        ),
        ("src/view/frame.rs", "pub fn draw() {}"),
        ("src/app.rs", "use crate::view; fn f() { view::Limits; }"),
    ];
    assert_eq!(
        graph_of(&files),
        [
            pair("src/app.rs", "src/view/mod.rs"),
            pair("src/view/mod.rs", "src/view/frame.rs"),
        ]
    );
}

#[test]
fn super_child_modules_and_inline_modules_resolve_where_they_are_written() {
    let files = [
        ("src/lib.rs", "pub mod view;"),
        (
            "src/view/mod.rs",
            "mod frame; mod quiz; pub struct Limits; fn f() { frame::draw(); }\n\
             mod inner { use super::*; use super::quiz::Q; }",
        ),
        ("src/view/frame.rs", "use super::Limits; pub fn draw() {}"),
        ("src/view/quiz.rs", "pub struct Q;"),
    ];
    assert_eq!(
        graph_of(&files),
        [
            pair("src/view/frame.rs", "src/view/mod.rs"),
            pair("src/view/mod.rs", "src/view/frame.rs"),
            pair("src/view/mod.rs", "src/view/quiz.rs"),
        ]
    );
}

#[test]
fn a_pub_use_is_an_edge_of_its_file() {
    let files = [
        ("src/lib.rs", "pub mod a; pub mod b;"),
        ("src/a.rs", "pub use crate::b::B;"),
        ("src/b.rs", "pub struct B;"),
    ];
    assert_eq!(graph_of(&files), [pair("src/a.rs", "src/b.rs")]);
    let files = [
        ("src/lib.rs", "pub mod a; pub mod b;"),
        ("src/a.rs", "pub use crate::b::B; fn f() -> B { B }"),
        ("src/b.rs", "pub struct B;"),
    ];
    assert_eq!(graph_of(&files), [pair("src/a.rs", "src/b.rs")]);
}

#[test]
fn unit_test_modules_are_left_out() {
    let files = [
        ("src/lib.rs", "pub mod a; pub mod b;"),
        (
            "src/a.rs",
            "pub struct A;\n#[cfg(test)]\n#[allow(unused)]\nmod tests { use crate::b::B; }\n\
             #[cfg(test)] fn helper() -> [u8; 2] { crate::b::f(); [0; 2] }\n\
             fn real() { crate::b::f(); }",
        ),
        (
            "src/b.rs",
            "pub fn f() {} pub struct B; fn g() { crate::a::A; }",
        ),
    ];
    assert_eq!(
        graph_of(&files),
        [pair("src/a.rs", "src/b.rs"), pair("src/b.rs", "src/a.rs")]
    );
    let files = [
        files[0],
        (
            files[1].0,
            "pub struct A; #[cfg(test)] mod tests { use crate::b::B; }",
        ),
        files[2],
    ];
    assert_eq!(graph_of(&files), [pair("src/b.rs", "src/a.rs")]);
}
