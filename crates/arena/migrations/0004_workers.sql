-- The arena on many machines: workers anywhere take games from the queue under a lease and
-- store what they played in the database, which is all the server and the workers share.

-- A game being played is leased: by which worker (its name), until when (milliseconds since
-- 1970). A lease that ran out is the queue's again; a result is stored only under its lease.
ALTER TABLE scheduled ADD COLUMN worker TEXT;
ALTER TABLE scheduled ADD COLUMN lease_until BIGINT;

-- Who played each stored game (the server's own slots: 'server').
ALTER TABLE games ADD COLUMN worker TEXT;

-- Each stored game's record (the JSON `referee` writes), stored with its result.
CREATE TABLE game_records (
    number BIGINT PRIMARY KEY REFERENCES games (number),
    record TEXT NOT NULL
);

-- Uploaded sources, by the SHA-256 of their .tar.gz: what a worker builds from.
CREATE TABLE sources (
    hash TEXT PRIMARY KEY,
    archive BYTEA NOT NULL
);

-- The toolchain each language is built with, as the server found it: a worker whose own
-- differs does not take the games of that language's bots.
CREATE TABLE toolchains (
    language TEXT PRIMARY KEY,
    version TEXT NOT NULL
);

-- The arena's settings (the text of arena.toml) as the server last started with them: the
-- ladders, rules and leases a worker plays by.
CREATE TABLE arena_settings (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL
);
