//! The documentation's links, checked without any tool beyond `cargo test`: every relative
//! Markdown link of the README, protocol.md, the book (`docs/`) and the starter bots' notes
//! names a file or folder that exists, and an anchor (`file.md#anchor`, `#anchor`) names a
//! heading of that file, by the slugs GitHub and mdBook give headings; every chapter of the
//! book is listed in docs/SUMMARY.md.

use crate::common::repo_file;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// The anchor GitHub and mdBook give a heading: its text as shown (code spans' backticks and
/// emphasis stars dropped), lower-cased, each space (or other blank) a '-', and every character
/// but letters, digits, '-' and '_' dropped.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".to_string())
            } else {
                None
            }
        })
        .collect()
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<(char, usize)> = None;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| trimmed.chars().take_while(|c| *c == m).count());
        match (fence, marker) {
            (None, Some(m)) if run >= 3 => fence = Some((m, run)),
            (Some((m, open)), Some(c))
                if c == m && run >= open && trimmed[run..].trim().is_empty() =>
            {
                fence = None;
            }
            (None, _) => lines.push((index + 1, line)),
            _ => {}
        }
    }
    lines
}

/// A line with its code spans (`...`, ``...``) removed.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
        let after = &rest[start + ticks..];
        let closing = "`".repeat(ticks);
        match after.find(&closing) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The anchors of a Markdown file's headings (ATX headings outside code blocks), a repeated
/// heading numbered as GitHub and mdBook number it (`-1`, `-2`, ...).
fn anchors(text: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let title = line[hashes..].trim().trim_end_matches('#').trim_end();
        let shown: String = title.chars().filter(|c| *c != '`' && *c != '*').collect();
        let base = slug(&shown);
        let mut anchor = base.clone();
        let mut n = 0;
        while !anchors.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    anchors
}

/// The targets of a Markdown text's inline links and images (`[text](target)`,
/// `![alt](target "title")`), outside code, with their line numbers.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            targets.push((number, target.to_string()));
            rest = &after[end + 1..];
        }
    }
    targets
}

/// `path` with its `.` and `..` components folded, for comparing paths.
fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A path as a message shows it: from the repository's root when it is inside it.
fn shown(path: &Path) -> String {
    let root = repo_file("");
    path.strip_prefix(&root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// What is wrong with the relative links of the Markdown file `file`: one line per link whose
/// file does not exist or whose anchor is not a heading of its file.
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut problems = Vec::new();
    for (line, target) in link_targets(&text) {
        if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
            continue;
        }
        let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let linked = if path.is_empty() {
            file.to_path_buf()
        } else {
            normalised(&file.parent().unwrap().join(path))
        };
        let place = format!("{}:{line}: ({target})", shown(file));
        if !linked.exists() {
            problems.push(format!("{place}: no file {}", shown(&linked)));
            continue;
        }
        if anchor.is_empty() {
            continue;
        }
        if !linked
            .extension()
            .is_some_and(|extension| extension == "md")
        {
            problems.push(format!(
                "{place}: an anchor into a file that is not Markdown"
            ));
            continue;
        }
        let headings = anchors(&std::fs::read_to_string(&linked).unwrap());
        if !headings.contains(anchor) {
            problems.push(format!(
                "{place}: no heading of {} has the anchor '{anchor}'",
                shown(&linked)
            ));
        }
    }
    problems
}

/// The Markdown files under `dir`, its build output (`docs/book/`) left out.
fn markdown_under(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "book") {
                markdown_under(&path, files);
            }
        } else if path.extension().is_some_and(|extension| extension == "md") {
            files.push(path);
        }
    }
}

/// The documentation's Markdown files: the README, protocol.md, the book and the starter bots'
/// notes.
fn documentation() -> Vec<PathBuf> {
    let mut files = vec![repo_file("README.md"), repo_file("protocol.md")];
    markdown_under(&repo_file("docs"), &mut files);
    markdown_under(&repo_file("bots"), &mut files);
    files
}

#[test]
fn a_slug_is_the_heading_as_github_and_mdbook_make_it() {
    for (heading, anchor) in [
        ("1. Overview and conventions", "1-overview-and-conventions"),
        (
            "12. If you know other protocols",
            "12-if-you-know-other-protocols",
        ),
        ("side first|second", "side-firstsecond"),
        (
            "time move=MS bank=MS increment=MS first=MS",
            "time-movems-bankms-incrementms-firstms",
        ),
        (
            "A tournament's records file, games.jsonl",
            "a-tournaments-records-file-gamesjsonl",
        ),
        ("Gomocup (piskvork) brains", "gomocup-piskvork-brains"),
        ("A/B testing with SPRT", "ab-testing-with-sprt"),
        ("The built-in bots' ladder", "the-built-in-bots-ladder"),
        (
            "NNNN.A.stderr.txt, NNNN.B.stderr.txt",
            "nnnnastderrtxt-nnnnbstderrtxt",
        ),
    ] {
        assert_eq!(slug(heading), anchor, "{heading}");
    }
    let headings = anchors(
        "# Title\n### `MOVE draw` (checkers)\n```sh\n# not a heading\n```\n## Examples\n## Examples\n",
    );
    let expected = ["title", "move-draw-checkers", "examples", "examples-1"];
    assert_eq!(headings, expected.iter().map(ToString::to_string).collect());
}

#[test]
fn a_broken_link_is_found() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(
        dir.path().join("a.md"),
        "# A\n\n## Part one\n\n[fine](sub/b.md#b) and [fine](#part-one), \
         [fine](https://example.com/#x), `[code](nowhere.md)`\n\n\
         [missing file](c.md), [missing\nanchor](sub/b.md#nope) ![image](#part-two)\n\
         ```\n[in a block](nowhere.md)\n```\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("sub/b.md"),
        "# B\n\nBack to [A](../a.md#a).\n",
    )
    .unwrap();
    let problems = broken_links(&dir.path().join("a.md"));
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].contains("(c.md): no file"), "{problems:#?}");
    assert!(problems[1].contains("'nope'"), "{problems:#?}");
    assert!(problems[2].contains("'part-two'"), "{problems:#?}");
    assert!(broken_links(&dir.path().join("sub/b.md")).is_empty());
}

#[test]
fn every_link_of_the_documentation_leads_somewhere() {
    let problems: Vec<String> = documentation()
        .iter()
        .flat_map(|file| broken_links(file))
        .collect();
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_chapter_of_the_book_is_in_its_summary() {
    let docs = repo_file("docs");
    let summary = docs.join("SUMMARY.md");
    let listed: HashSet<PathBuf> = link_targets(&std::fs::read_to_string(&summary).unwrap())
        .into_iter()
        .map(|(_, target)| normalised(&docs.join(target)))
        .collect();
    let mut chapters = Vec::new();
    markdown_under(&docs, &mut chapters);
    let missing: Vec<String> = chapters
        .iter()
        .filter(|chapter| **chapter != summary && !listed.contains(&normalised(chapter)))
        .map(|chapter| shown(chapter))
        .collect();
    assert!(
        missing.is_empty(),
        "chapters not in docs/SUMMARY.md: {missing:?}"
    );
    assert!(docs.join("book.toml").is_file());
}
