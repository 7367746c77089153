//! Language profiles: how a folder of sources becomes a bot command. Each profile names the
//! files that show its language, a compile step (a shell command run in a copy of the sources)
//! and the command that runs the result, with `{dir}` standing for the folder of the built
//! files. Built in for C, C++, Rust, Go, Java, Python 3 and JavaScript; a contest file
//! overrides any key of them, or adds languages, in `[languages.NAME]` tables.
//!
//! By convention the entry point is `main.EXT` (the class `Main` in Java): one file or many,
//! the compile step builds every source file of the language in the folder's top level.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One language: how to recognise, build and run it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// File names that show the language, in the folder's top level: `*.EXT` or an exact name.
    pub detect: Vec<String>,
    /// A shell command (`sh -c`) run in a writable copy of the sources, with no network; what
    /// it leaves in that folder is the build. Empty for none.
    #[serde(default)]
    pub compile: String,
    /// The bot's command; `{dir}` is the absolute path of the built folder.
    pub run: String,
    /// A shell command printing the toolchain's version (its first non-empty line is kept),
    /// run once per language per run in the build's sandbox, so that the organiser can list
    /// exactly which compiler or interpreter built and runs the bots. Empty for none.
    #[serde(default)]
    pub version: String,
}

/// A `[languages.NAME]` table: any key left out keeps the built-in profile's (a new language
/// must give `detect` and `run`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a language's table, [languages.NAME] with detect, compile, run or version = \"...\""
)]
pub struct ProfileOverride {
    /// Replaces [`Profile::detect`].
    pub detect: Option<Vec<String>>,
    /// Replaces [`Profile::compile`].
    pub compile: Option<String>,
    /// Replaces [`Profile::run`].
    pub run: Option<String>,
    /// Replaces [`Profile::version`].
    pub version: Option<String>,
}

/// The built-in profiles, in the order detection tries them.
pub fn builtin() -> Vec<(String, Profile)> {
    let profile = |name: &str, detect: &[&str], compile: &str, run: &str, version: &str| {
        (
            name.to_string(),
            Profile {
                detect: detect.iter().map(|d| (*d).to_string()).collect(),
                compile: compile.to_string(),
                run: run.to_string(),
                version: version.to_string(),
            },
        )
    };
    vec![
        profile(
            "cpp",
            &["*.cpp", "*.cc", "*.cxx"],
            "g++ -std=c++17 -O2 -pipe -o main $(ls *.cpp *.cc *.cxx 2>/dev/null) -lm",
            "{dir}/main",
            "g++ --version",
        ),
        profile(
            "c",
            &["*.c"],
            "gcc -std=c17 -O2 -pipe -o main *.c -lm",
            "{dir}/main",
            "gcc --version",
        ),
        profile(
            "rust",
            &["*.rs"],
            "rustc --edition 2021 -O -o main main.rs",
            "{dir}/main",
            "rustc --version",
        ),
        profile(
            "go",
            &["*.go"],
            // No module, no network: the standard library only.
            "GO111MODULE=off GOCACHE=/tmp/go-cache go build -o main *.go",
            "{dir}/main",
            "go version",
        ),
        profile(
            "java",
            &["*.java"],
            // -proc:none: an annotation processor shipped in the sources (META-INF/services)
            // would be the entrant's code run by the compiler, at build time.
            "javac -J-Xmx512m -proc:none -encoding UTF-8 -d . *.java",
            // A small heap and the serial collector: the JVM starts under the address-space limit
            // and takes one core. The JVM's own warnings go to stderr, not to stdout (its
            // default), where a line is a forfeit; and no /tmp/hsperfdata file: bots in PID
            // namespaces of their own share pids, and a JVM finding another's file locked warns.
            "java -Xmx256m -Xss16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr -cp {dir} Main",
            // The runtime the games use; javac comes with the same JDK.
            "java -Xmx64m -version",
        ),
        profile(
            "python",
            &["*.py"],
            "python3 -m py_compile *.py",
            "python3 {dir}/main.py",
            "python3 --version",
        ),
        profile(
            "javascript",
            &["*.js"],
            "for f in *.js; do node --check \"$f\" || exit 1; done",
            "node {dir}/main.js",
            "node --version",
        ),
    ]
}

/// The profiles after a contest file's `[languages]`: overrides applied key by key, new
/// languages appended (tried for detection after the built-in ones).
pub fn with_overrides(
    overrides: &BTreeMap<String, ProfileOverride>,
) -> Result<Vec<(String, Profile)>, String> {
    let mut profiles = builtin();
    for (name, changes) in overrides {
        match profiles.iter_mut().find(|(known, _)| known == name) {
            Some((_, profile)) => {
                if let Some(detect) = &changes.detect {
                    profile.detect = detect.clone();
                }
                if let Some(compile) = &changes.compile {
                    profile.compile = compile.clone();
                }
                if let Some(run) = &changes.run {
                    profile.run = run.clone();
                }
                if let Some(version) = &changes.version {
                    profile.version = version.clone();
                }
            }
            None => {
                let (Some(detect), Some(run)) = (&changes.detect, &changes.run) else {
                    return Err(format!(
                        "languages.{name}: a new language needs detect = [\"*.EXT\"] and run = \"... {{dir}}/...\" (and compile = \"...\" if it is compiled)"
                    ));
                };
                profiles.push((
                    name.clone(),
                    Profile {
                        detect: detect.clone(),
                        compile: changes.compile.clone().unwrap_or_default(),
                        run: run.clone(),
                        version: changes.version.clone().unwrap_or_default(),
                    },
                ));
            }
        }
    }
    for (name, profile) in &profiles {
        if !profile.run.contains("{dir}") {
            return Err(format!(
                "languages.{name}: run = \"{}\" does not name the built folder as {{dir}}",
                profile.run
            ));
        }
    }
    Ok(profiles)
}

impl Profile {
    /// Whether `file_name` shows this language.
    pub fn detects(&self, file_name: &str) -> bool {
        self.detect
            .iter()
            .any(|pattern| match pattern.strip_prefix('*') {
                Some(suffix) => file_name.ends_with(suffix) && file_name.len() > suffix.len(),
                None => file_name == pattern,
            })
    }

    /// The file of the built folder the run command starts, relative to it: the first word
    /// `{dir}/FILE` (`{dir}/main.py`, `{dir}/main`), else, for a class path `{dir}`, the
    /// class file of the last word (`Main.class` for Java's `-cp {dir} Main`). `None` when the
    /// command names neither: then nothing is checked.
    pub fn entry(&self) -> Option<String> {
        let words = shlex::split(&self.run)?;
        if let Some(file) = words.iter().find_map(|word| word.strip_prefix("{dir}/")) {
            return Some(file.to_string());
        }
        let class = words
            .last()
            .filter(|_| words.iter().any(|word| word == "{dir}"))?;
        (class != "{dir}").then(|| format!("{}.class", class.replace('.', "/")))
    }

    /// The bot's command for a build in `dir`.
    pub fn command(&self, dir: &Path) -> String {
        let quoted = shlex::try_quote(&dir.to_string_lossy())
            .map_or_else(|_| dir.display().to_string(), std::borrow::Cow::into_owned);
        self.run.replace("{dir}", &quoted)
    }

    /// The program the run command starts by its name, found on the `PATH` (`python3`,
    /// `java`, `node`): the one to resolve in the build's sandbox, so that games run the
    /// interpreter the build used and not another of the organiser's `PATH`. `None` when the
    /// command starts a path (`{dir}/main`, `/usr/bin/pypy3`) or a shell word.
    pub fn program(&self) -> Option<&str> {
        let first = self.run.split_whitespace().next()?;
        let plain = first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._+-".contains(&b));
        plain.then_some(first)
    }

    /// [`Profile::command`], with [`Profile::program`] replaced by `resolved`, its absolute
    /// path.
    pub fn command_resolved(&self, dir: &Path, resolved: &str) -> String {
        let command = self.command(dir);
        let Some(program) = self.program() else {
            return command;
        };
        let rest = command
            .trim_start()
            .strip_prefix(program)
            .unwrap_or(&command);
        let quoted = shlex::try_quote(resolved)
            .map_or_else(|_| resolved.into(), std::borrow::Cow::into_owned);
        format!("{quoted}{rest}")
    }
}

/// The languages whose files the top level of `dir` holds, by the profiles' order, each with
/// the first file that showed it.
pub fn detect<'p>(
    profiles: &'p [(String, Profile)],
    dir: &Path,
) -> std::io::Result<Vec<(&'p str, String)>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(profiles
        .iter()
        .filter_map(|(language, profile)| {
            names
                .iter()
                .find(|name| profile.detects(name))
                .map(|name| (language.as_str(), name.clone()))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profiled_language_is_detected_from_its_files() {
        let profiles = builtin();
        let dir = tempfile::tempdir().unwrap();
        for (file, language) in [
            ("main.cpp", "cpp"),
            ("main.c", "c"),
            ("main.rs", "rust"),
            ("main.go", "go"),
            ("Main.java", "java"),
            ("main.py", "python"),
            ("main.js", "javascript"),
        ] {
            let folder = dir.path().join(language);
            std::fs::create_dir(&folder).unwrap();
            std::fs::write(folder.join(file), "").unwrap();
            std::fs::write(folder.join("README.md"), "").unwrap();
            let found = detect(&profiles, &folder).unwrap();
            assert_eq!(found, [(language, file.to_string())]);
        }
        // `.c` does not show C++, nor `.cc` C.
        assert!(!profiles[0].1.detects("x.c") && !profiles[1].1.detects("x.cc"));
        assert!(
            !profiles[0].1.detects(".cpp"),
            "a bare suffix is no file of it"
        );
    }

    #[test]
    fn the_entry_file_is_the_one_the_run_command_starts() {
        let entry = |language: &str| {
            let profiles = builtin();
            let found = profiles.iter().find(|(n, _)| n == language).unwrap();
            found.1.entry()
        };
        assert_eq!(entry("python").as_deref(), Some("main.py"));
        assert_eq!(entry("javascript").as_deref(), Some("main.js"));
        for compiled in ["c", "cpp", "rust", "go"] {
            assert_eq!(entry(compiled).as_deref(), Some("main"), "{compiled}");
        }
        assert_eq!(entry("java").as_deref(), Some("Main.class"));
        let run = |run: &str| {
            Profile {
                detect: vec![],
                compile: String::new(),
                run: run.into(),
                version: String::new(),
            }
            .entry()
        };
        assert_eq!(
            run("java -cp {dir} bot.Main").as_deref(),
            Some("bot/Main.class")
        );
        assert_eq!(
            run("mono {dir}/bin/bot.exe --fast").as_deref(),
            Some("bin/bot.exe")
        );
        assert_eq!(run("./run {dir}"), None);
        assert_eq!(run("lua 'unclosed {dir}/x"), None);
    }

    #[test]
    fn an_interpreter_is_resolved_and_a_path_is_kept() {
        let profile = |run: &str| Profile {
            detect: vec![],
            compile: String::new(),
            run: run.into(),
            version: String::new(),
        };
        let dir = Path::new("/c/my dir");
        let python = profile("python3 {dir}/main.py");
        assert_eq!(python.program(), Some("python3"));
        assert_eq!(
            python.command_resolved(dir, "/usr/bin/python3"),
            "/usr/bin/python3 '/c/my dir'/main.py"
        );
        assert_eq!(
            python.command_resolved(dir, "/opt/py 3/bin/python3"),
            "'/opt/py 3/bin/python3' '/c/my dir'/main.py"
        );
        for kept in [
            "{dir}/main",
            "/usr/bin/pypy3 {dir}/main.py",
            "A=1 lua {dir}/x",
            "'x' {dir}",
        ] {
            assert_eq!(profile(kept).program(), None, "{kept}");
            assert_eq!(
                profile(kept).command_resolved(dir, "/bin/evil"),
                profile(kept).command(dir)
            );
        }
        let versions: Vec<String> = builtin().into_iter().map(|(_, p)| p.version).collect();
        assert!(versions.iter().all(|v| !v.is_empty()), "{versions:?}");
    }

    #[test]
    fn javac_runs_no_annotation_processor_of_the_sources() {
        let profiles = builtin();
        let java = &profiles.iter().find(|(n, _)| n == "java").unwrap().1;
        assert!(java.compile.starts_with("javac "), "{}", java.compile);
        assert!(
            java.compile
                .split_whitespace()
                .any(|word| word == "-proc:none"),
            "{}",
            java.compile
        );
    }

    #[test]
    fn overrides_change_keys_and_add_languages() {
        let overrides = BTreeMap::from([
            (
                "python".to_string(),
                ProfileOverride {
                    run: Some("pypy3 {dir}/main.py".into()),
                    ..ProfileOverride::default()
                },
            ),
            (
                "lua".to_string(),
                ProfileOverride {
                    detect: Some(vec!["*.lua".into()]),
                    run: Some("lua {dir}/main.lua".into()),
                    compile: None,
                    version: Some("lua -v".into()),
                },
            ),
        ]);
        let profiles = with_overrides(&overrides).unwrap();
        let python = &profiles.iter().find(|(n, _)| n == "python").unwrap().1;
        assert_eq!(python.run, "pypy3 {dir}/main.py");
        assert_eq!(python.compile, "python3 -m py_compile *.py");
        let lua = &profiles.last().unwrap();
        assert_eq!((lua.0.as_str(), lua.1.compile.as_str()), ("lua", ""));
        assert_eq!(lua.1.version, "lua -v");
        assert_eq!(python.version, "python3 --version");
        assert_eq!(
            lua.1.command(Path::new("/c/my dir")),
            "lua '/c/my dir'/main.lua"
        );
        let incomplete = BTreeMap::from([("zig".to_string(), ProfileOverride::default())]);
        assert!(with_overrides(&incomplete)
            .unwrap_err()
            .contains("languages.zig"));
        let no_dir = BTreeMap::from([(
            "c".to_string(),
            ProfileOverride {
                run: Some("./main".into()),
                ..ProfileOverride::default()
            },
        )]);
        assert!(with_overrides(&no_dir).unwrap_err().contains("{dir}"));
    }
}
