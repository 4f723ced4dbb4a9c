//! The layout: no module of `src/` depends on itself through others (a module depends on the
//! modules its non-test code names by `crate::` or `super::` paths), and no file of `src/` is over
//! 600 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path (`search::smp::pool`; the crate root `crate`).
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix(SRC).expect("under src").with_extension("");
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).filter(|&p| p != "mod").collect();
    match parts.as_slice() {
        ["lib"] | ["main"] => "crate".to_string(),
        _ => parts.join("::"),
    }
}

/// The modules `text` (the source of `module`) names, its tests and comments aside.
fn dependencies(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let parent: Vec<&str> = match module.rsplit_once("::") {
        Some((p, _)) => p.split("::").collect(),
        None => Vec::new(),
    };
    let mut deps = BTreeSet::new();
    for line in code.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
        for (i, _) in line.match_indices("crate::").chain(line.match_indices("super::")) {
            let path: String = line[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
            parts = match parts.first() {
                Some(&"super") => parent.iter().copied().chain(parts[1..].iter().copied()).collect(),
                _ => parts[1..].to_vec(),
            };
            // The longest prefix that is a module.
            if let Some(found) = (1..=parts.len()).rev().map(|k| parts[..k].join("::")).find(|m| modules.contains(m))
                && found != module
                && !module.starts_with(&format!("{found}::"))
            {
                deps.insert(found);
            }
        }
    }
    deps
}

/// The groups of modules that depend on each other (Tarjan's strongly connected components of
/// two or more).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    group.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.found.push(group);
                }
            }
        }
    }
    let mut t =
        Tarjan { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on_stack: BTreeSet::new(), found: Vec::new() };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.found
}

#[test]
fn no_module_depends_on_itself_and_no_file_is_over_600_lines() {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| (module_of(f), std::fs::read_to_string(f).expect("a readable file")))
        .filter(|(m, _)| !m.ends_with("tests"))
        .collect();
    let modules: BTreeSet<String> = texts.iter().map(|(m, _)| m.clone()).collect();
    let graph: BTreeMap<String, BTreeSet<String>> = texts.iter().map(|(m, t)| (m.clone(), dependencies(m, t, &modules))).collect();
    assert!(graph["search::worker"].contains("search::history"), "the dependencies are read: {graph:?}");
    assert_eq!(cycles(&graph), Vec::<Vec<String>>::new(), "modules that depend on each other");
    for f in &files {
        let lines = std::fs::read_to_string(f).expect("a readable file").lines().count();
        assert!(lines <= 600, "{} has {lines} lines", f.display());
    }
}
