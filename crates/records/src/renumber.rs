//! Records of kept games under new numbers: when a contest's field changes (a resubmission,
//! a new player), its schedule is made again and the games it keeps move to their places in
//! it (see `referee_core::tournament::carry`). Each function writes the renumbered copy
//! beside the original, which it never changes, so that a run killed meanwhile loses nothing.

use crate::record_pack::MAX_LINE;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// Writes to `to` the lines of the records file `from` that belong to a game of `numbers`
/// (its record's, or an epilogue's), in their order, each under its new number; other games'
/// lines, and a last line cut short by a crash, are left out. Returns the lines copied.
pub fn renumber_pack(
    from: &Path,
    mut writer: impl Write,
    numbers: &BTreeMap<u32, u32>,
) -> io::Result<usize> {
    let mut reader = BufReader::new(File::open(from)?);
    let mut line = Vec::new();
    let mut copied = 0;
    loop {
        line.clear();
        (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line)?;
        if line.last() != Some(&b'\n') {
            // The end, or a line cut short by a crash: no game's whole line.
            break;
        }
        let Ok(mut value) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        let number = if value.get("record").is_some() {
            value
                .get_mut("record")
                .and_then(|record| record.get_mut("number"))
        } else {
            value.get_mut("epilogue")
        };
        let Some(number) = number else {
            continue;
        };
        let Some(&new) = number
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .and_then(|n| numbers.get(&n))
        else {
            continue;
        };
        *number = Value::from(new);
        serde_json::to_writer(&mut writer, &value).map_err(io::Error::other)?;
        writer.write_all(b"\n")?;
        copied += 1;
    }
    writer.flush()?;
    Ok(copied)
}

/// Copies into the folder `to` the files of the games of `numbers` in the folder `from`
/// (`NNNN.json`, `NNNN.transcript.txt`, `NNNN.LABEL.stderr.txt`), each under its new number,
/// the record's own `number` changed with it. Returns the games whose record was there.
pub fn renumber_files(from: &Path, to: &Path, numbers: &BTreeMap<u32, u32>) -> io::Result<usize> {
    fs::create_dir_all(to)?;
    let mut games = 0;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((stem, rest)) = name.split_once('.') else {
            continue;
        };
        let Some(&new) = stem.parse::<u32>().ok().and_then(|n| numbers.get(&n)) else {
            continue;
        };
        let target = to.join(format!("{new:04}.{rest}"));
        if rest == "json" {
            let mut record: Value = serde_json::from_slice(&fs::read(entry.path())?)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            record["number"] = Value::from(new);
            let mut json = serde_json::to_string_pretty(&record).map_err(io::Error::other)?;
            json.push('\n');
            fs::write(target, json)?;
            games += 1;
        } else {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_games_move_to_their_new_numbers_and_others_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let pack = dir.path().join("games.jsonl");
        std::fs::write(
            &pack,
            concat!(
                "{\"record\":{\"number\":1,\"x\":1},\"transcript\":\"a\"}\n",
                "{\"record\":{\"number\":2,\"x\":2},\"transcript\":\"b\"}\n",
                "{\"epilogue\":2,\"label\":\"ann\",\"transcript\":\"c\"}\n",
                "{\"record\":{\"number\":3,\"x\":3},\"transc",
            ),
        )
        .unwrap();
        let numbers = BTreeMap::from([(2, 7), (3, 8)]);
        let mut to = Vec::new();
        assert_eq!(renumber_pack(&pack, &mut to, &numbers).unwrap(), 2);
        assert_eq!(
            String::from_utf8(to).unwrap(),
            "{\"record\":{\"number\":7,\"x\":2},\"transcript\":\"b\"}\n{\"epilogue\":7,\"label\":\"ann\",\"transcript\":\"c\"}\n"
        );

        let games = dir.path().join("games");
        std::fs::create_dir(&games).unwrap();
        for (name, text) in [
            ("0001.json", "{\"number\": 1}"),
            ("0002.json", "{\"number\": 2, \"y\": true}"),
            ("0002.transcript.txt", "lines"),
            ("0002.ann.stderr.txt", "oops"),
        ] {
            std::fs::write(games.join(name), text).unwrap();
        }
        let next = dir.path().join("games.next");
        assert_eq!(renumber_files(&games, &next, &numbers).unwrap(), 1);
        let mut names: Vec<String> = std::fs::read_dir(&next)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["0007.ann.stderr.txt", "0007.json", "0007.transcript.txt"]
        );
        let record: Value =
            serde_json::from_str(&std::fs::read_to_string(next.join("0007.json")).unwrap())
                .unwrap();
        assert_eq!(record, serde_json::json!({"number": 7, "y": true}));
    }
}
