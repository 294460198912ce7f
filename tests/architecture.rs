//! The import graph of `src/`, file by file, and the cycles in it.
//!
//! A file A *depends on* a file B when A names an item of B through a
//! path. This test reads every `.rs` file of the library (not `main.rs`:
//! the binary is a crate of its own that nothing in the library can name)
//! and builds that graph by these rules:
//!
//! - **What is read.** Each file is parsed by `syn`, so comments (doc
//!   comments too: an intra-doc link is no import), string and char
//!   literals are no code. Every `use` tree is expanded (`use
//!   crate::a::{b, c::D}` is two paths), and every other path in the code
//!   (`crate::i18n::X`, `super::error(..)`, `frame::draw(..)`, and in a
//!   macro call's tokens) counts as well. Items and statements under
//!   `#[cfg(test)]` (the unit-test modules) are left out: they stand above their file as a file of `tests/`
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

use syn::visit::Visit;

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

/// A file read by `syn`: its `use` trees, the paths in its code (in macro
/// calls too, read from their tokens), its child modules and top-level
/// items; what stands under `#[cfg(test)]` is left out.
fn parse(src: &str) -> Parsed {
    let file = syn::parse_file(src).expect("a file of src/ that parses");
    let mut reader = Reader::default();
    for item in &file.items {
        reader.visit_item(item);
    }
    reader.p
}

#[derive(Default)]
struct Reader {
    p: Parsed,
    /// The inline modules (`mod x { .. }`) the reader is in.
    inline: Vec<String>,
    /// How many blocks deep: items in a function body are not the file's.
    depth: usize,
}

fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

fn line_of(span: proc_macro2::Span) -> usize {
    span.start().line
}

impl Reader {
    fn top(&self) -> bool {
        self.inline.is_empty() && self.depth == 0
    }

    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &[String], public: bool, line: usize) {
        let path = |last: &syn::Ident| [prefix, &[last.to_string()]].concat();
        let mut add = |segs: Vec<String>, name: Option<String>| {
            self.p.uses.push(UsePath {
                segs,
                name,
                public,
                inline: self.inline.clone(),
                line,
            })
        };
        match tree {
            syn::UseTree::Path(p) => self.use_tree(&p.tree, &path(&p.ident), public, line),
            // `use a::b::{self}` binds `b`.
            syn::UseTree::Name(n) if n.ident == "self" => {
                add(prefix.to_vec(), prefix.last().cloned())
            }
            syn::UseTree::Name(n) => add(path(&n.ident), Some(n.ident.to_string())),
            syn::UseTree::Rename(r) => add(path(&r.ident), Some(r.rename.to_string())),
            syn::UseTree::Glob(_) => add(prefix.to_vec(), None),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix, public, line);
                }
            }
        }
    }

    fn code_path(&mut self, segs: Vec<String>, line: usize) {
        if segs.len() >= 2 {
            self.p.paths.push(CodePath {
                segs,
                inline: self.inline.clone(),
                line,
            });
        }
    }

    /// Paths in a macro call's tokens (`format!("{}", crate::a::B)`):
    /// identifiers joined by `::`, the longest run each.
    fn macro_paths(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::TokenTree;
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let sep = |k: usize| {
            matches!((tokens.get(k), tokens.get(k + 1)),
                (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
        };
        let mut k = 0;
        while k < tokens.len() {
            match &tokens[k] {
                TokenTree::Group(g) => self.macro_paths(g.stream()),
                TokenTree::Ident(first) if k < 2 || !sep(k - 2) => {
                    let mut segs = vec![first.to_string()];
                    while sep(k + 1)
                        && let Some(TokenTree::Ident(next)) = tokens.get(k + 3)
                    {
                        segs.push(next.to_string());
                        k += 3;
                    }
                    self.code_path(segs, line_of(first.span()));
                }
                _ => {}
            }
            k += 1;
        }
    }
}

impl<'a> Visit<'a> for Reader {
    fn visit_item(&mut self, item: &'a syn::Item) {
        use syn::Item;
        let attrs = match item {
            Item::Const(i) => &i.attrs,
            Item::Enum(i) => &i.attrs,
            Item::Fn(i) => &i.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Macro(i) => &i.attrs,
            Item::Mod(i) => &i.attrs,
            Item::Static(i) => &i.attrs,
            Item::Struct(i) => &i.attrs,
            Item::Trait(i) => &i.attrs,
            Item::Type(i) => &i.attrs,
            Item::Union(i) => &i.attrs,
            Item::Use(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if test_only(attrs) {
            return;
        }
        let declared = match item {
            Item::Const(i) => Some(&i.ident),
            Item::Enum(i) => Some(&i.ident),
            Item::Fn(i) => Some(&i.sig.ident),
            Item::Static(i) => Some(&i.ident),
            Item::Struct(i) => Some(&i.ident),
            Item::Trait(i) => Some(&i.ident),
            Item::Type(i) => Some(&i.ident),
            Item::Union(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(name) = declared.filter(|_| self.top()) {
            self.p.items.insert(name.to_string());
        }
        match item {
            Item::Use(u) => {
                let public = !matches!(u.vis, syn::Visibility::Inherited);
                self.use_tree(&u.tree, &[], public, line_of(u.use_token.span));
            }
            Item::Mod(m) => match &m.content {
                None if self.top() => {
                    self.p.children.insert(m.ident.to_string());
                }
                None => {}
                Some((_, items)) => {
                    self.inline.push(m.ident.to_string());
                    for i in items {
                        self.visit_item(i);
                    }
                    self.inline.pop();
                }
            },
            _ => syn::visit::visit_item(self, item),
        }
    }

    fn visit_block(&mut self, block: &'a syn::Block) {
        self.depth += 1;
        syn::visit::visit_block(self, block);
        self.depth -= 1;
    }

    fn visit_stmt(&mut self, stmt: &'a syn::Stmt) {
        // `#[cfg(test)] if …` and `#[cfg(test)] tests::saw(text);`
        let attrs: &[syn::Attribute] = match stmt {
            syn::Stmt::Local(l) => &l.attrs,
            syn::Stmt::Macro(m) => &m.attrs,
            syn::Stmt::Expr(syn::Expr::If(e), _) => &e.attrs,
            syn::Stmt::Expr(syn::Expr::Call(e), _) => &e.attrs,
            syn::Stmt::Expr(syn::Expr::MethodCall(e), _) => &e.attrs,
            syn::Stmt::Expr(syn::Expr::Block(e), _) => &e.attrs,
            syn::Stmt::Expr(syn::Expr::Macro(e), _) => &e.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            syn::visit::visit_stmt(self, stmt);
        }
    }

    fn visit_path(&mut self, path: &'a syn::Path) {
        if path.leading_colon.is_none() {
            let segs = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let line = path.segments.first().map_or(0, |s| line_of(s.ident.span()));
            self.code_path(segs, line);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        self.macro_paths(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
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

/// The map of the code (docs/architecture.md, "How it is built") names every file and
/// folder directly under src/, so a newcomer finds each in it (issue 23).
#[test]
fn the_readmes_map_names_every_file_and_folder_of_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
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
    assert!(
        missing.is_empty(),
        "not in docs/architecture.md's map: {missing:?}"
    );
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

/// Where the library writes a step's narration (`….narration = …`), and
/// which functions of `src/wire/` take a `&mut Trace`: test code left out.
#[derive(Default)]
struct Writes {
    file: String,
    narration: BTreeSet<String>,
    wire_mut: Vec<String>,
}

impl<'a> Visit<'a> for Writes {
    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        if !test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        if !test_only(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_expr_assign(&mut self, e: &'a syn::ExprAssign) {
        if let syn::Expr::Field(field) = &*e.left
            && matches!(&field.member, syn::Member::Named(n) if n == "narration")
        {
            self.narration.insert(self.file.clone());
        }
        syn::visit::visit_expr_assign(self, e);
    }

    fn visit_signature(&mut self, sig: &'a syn::Signature) {
        let mut_trace = sig.inputs.iter().any(|input| {
            matches!(input, syn::FnArg::Typed(t)
                if matches!(&*t.ty, syn::Type::Reference(r)
                    if r.mutability.is_some()
                        && matches!(&*r.elem, syn::Type::Path(p)
                            if p.path.segments.last().is_some_and(|s| s.ident == "Trace"))))
        });
        if mut_trace && self.file.starts_with("src/wire/") {
            self.wire_mut
                .push(format!("{}: fn {}", self.file, sig.ident));
        }
        syn::visit::visit_signature(self, sig);
    }
}

/// The trace is plain data (issue 33): a step's narration is set in one
/// place per source (a lesson's in `load`, once its run is known; a
/// transcript's in its builder), and `wire` only reads traces (what it
/// measures, `Trace::set_measures` writes).
#[test]
fn narration_is_set_in_one_place_and_wire_only_reads_traces() {
    let mut writes = Writes::default();
    for (file, src) in library_sources() {
        writes.file = file;
        writes.visit_file(&syn::parse_file(&src).unwrap());
    }
    assert_eq!(
        writes.narration,
        BTreeSet::from(["src/load/mod.rs".into(), "src/transcript/builder.rs".into()]),
        "files that set a step's narration"
    );
    assert_eq!(
        writes.wire_mut,
        Vec::<String>::new(),
        "wire writing into a trace"
    );
}

/// Files outside `src/i18n/` that make a `Label` (`Label::new`, `Label(…)`).
#[derive(Default)]
struct Labels {
    file: String,
    outside: BTreeSet<String>,
}

impl<'a> Visit<'a> for Labels {
    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        if !test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_expr_call(&mut self, call: &'a syn::ExprCall) {
        if let syn::Expr::Path(p) = &*call.func {
            let names: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let makes = matches!(names.as_slice(), [.., a, b] if a == "Label" && b == "new")
                || names.last().is_some_and(|n| n == "Label");
            if makes && !self.file.starts_with("src/i18n/") {
                self.outside.insert(self.file.clone());
            }
        }
        syn::visit::visit_expr_call(self, call);
    }
}

/// Every text of the program is in the catalogue (`src/i18n/`), the
/// keymap's and the exported pages' included, so a language is one more
/// column there and nowhere else (issue 33).
#[test]
fn every_label_is_in_the_catalogue() {
    let mut labels = Labels::default();
    for (file, src) in library_sources() {
        labels.file = file;
        labels.visit_file(&syn::parse_file(&src).unwrap());
    }
    assert_eq!(
        labels.outside,
        BTreeSet::new(),
        "files that make a Label outside src/i18n/"
    );
}

/// Places outside `src/i18n/` (and `src/scenario.rs`, where `Lang` is
/// defined) that choose by language: a `match` with an arm on a `Lang`
/// variant, or a pattern that unpacks one value per language by name
/// (`[zh, en]`, `[Some((_, zh)), Some((_, en))]`). A third language is
/// then one more column of the catalogue, not a hunt for such places.
#[derive(Default)]
struct LangChoices {
    file: String,
    found: Vec<String>,
}

/// The names a pattern binds, at any depth.
#[derive(Default)]
struct Bound(BTreeSet<String>);

impl<'a> Visit<'a> for Bound {
    fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
        self.0.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }
}

/// Does the pattern name a `Lang` variant (`Lang::Zh`, `Lang::En | …`)?
fn names_a_lang(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Path(p) => {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            matches!(segs.as_slice(), [.., lang, _] if lang == "Lang")
        }
        syn::Pat::Or(or) => or.cases.iter().any(names_a_lang),
        syn::Pat::Ident(i) => i.subpat.as_ref().is_some_and(|(_, p)| names_a_lang(p)),
        _ => false,
    }
}

impl LangChoices {
    fn unpacks(&mut self, elems: &syn::punctuated::Punctuated<syn::Pat, syn::Token![,]>) {
        let mut bound = Bound::default();
        elems.iter().for_each(|p| bound.visit_pat(p));
        if bound.0.contains("zh") && bound.0.contains("en") {
            let line = elems
                .first()
                .map_or(0, |p| line_of(syn::spanned::Spanned::span(p)));
            self.found
                .push(format!("{}:{line} unpacks [zh, en]", self.file));
        }
    }
}

impl<'a> Visit<'a> for LangChoices {
    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        if !test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        if m.arms.iter().any(|arm| names_a_lang(&arm.pat)) {
            let line = line_of(m.match_token.span);
            self.found
                .push(format!("{}:{line} matches on Lang", self.file));
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_pat_slice(&mut self, p: &'a syn::PatSlice) {
        self.unpacks(&p.elems);
        syn::visit::visit_pat_slice(self, p);
    }

    fn visit_pat_tuple(&mut self, p: &'a syn::PatTuple) {
        self.unpacks(&p.elems);
        syn::visit::visit_pat_tuple(self, p);
    }
}

/// What differs between languages is chosen in `src/i18n/` only (issue
/// 33): elsewhere code goes over `Lang::ALL` or asks `i18n`, never names
/// the languages one by one.
#[test]
fn only_i18n_chooses_by_language() {
    let mut choices = LangChoices::default();
    for (file, src) in library_sources() {
        if file.starts_with("src/i18n/") || file == "src/scenario.rs" {
            continue;
        }
        choices.file = file;
        choices.visit_file(&syn::parse_file(&src).unwrap());
    }
    assert_eq!(
        choices.found,
        Vec::<String>::new(),
        "places outside src/i18n/ that choose by language"
    );
}
