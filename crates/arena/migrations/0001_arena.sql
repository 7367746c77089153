-- The arena's tables, in SQL that SQLite and PostgreSQL both take: ids are BIGINT given by
-- the arena (the next one read in the inserting transaction), times are seconds since 1970,
-- flags are INTEGER 0/1.

CREATE TABLE users (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    is_admin INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    expires_at BIGINT NOT NULL
);

CREATE TABLE api_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL
);

CREATE TABLE uploads (
    user_id BIGINT NOT NULL REFERENCES users (id),
    at BIGINT NOT NULL
);
CREATE INDEX uploads_by_user ON uploads (user_id, at);

CREATE TABLE ladders (
    name TEXT PRIMARY KEY,
    paused INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE bots (
    id BIGINT PRIMARY KEY,
    ladder TEXT NOT NULL REFERENCES ladders (name),
    name TEXT NOT NULL,
    owner_id BIGINT REFERENCES users (id),
    builtin TEXT,
    active_version BIGINT,
    retired INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (ladder, name)
);

-- A version's state: queued -> building -> validating -> passed | failed (a crash while
-- building or validating puts it back to queued on restart).
CREATE TABLE versions (
    id BIGINT PRIMARY KEY,
    bot_id BIGINT NOT NULL REFERENCES bots (id),
    number INTEGER NOT NULL,
    protocol TEXT NOT NULL,
    language TEXT,
    archive_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    command TEXT,
    build_log TEXT NOT NULL DEFAULT '',
    validation TEXT NOT NULL DEFAULT '',
    reason TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (bot_id, number)
);
CREATE INDEX versions_by_state ON versions (state, id);

-- Games to play: each row one game; 'playing' rows go back to 'scheduled' on restart.
CREATE TABLE scheduled (
    id BIGINT PRIMARY KEY,
    ladder TEXT NOT NULL REFERENCES ladders (name),
    first_version BIGINT NOT NULL REFERENCES versions (id),
    second_version BIGINT NOT NULL REFERENCES versions (id),
    placement INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX scheduled_by_state ON scheduled (state, id);

-- Finished games, numbered densely from 1 in the transaction that stores the result.
CREATE TABLE games (
    number BIGINT PRIMARY KEY,
    scheduled_id BIGINT NOT NULL UNIQUE,
    ladder TEXT NOT NULL REFERENCES ladders (name),
    first_version BIGINT NOT NULL REFERENCES versions (id),
    second_version BIGINT NOT NULL REFERENCES versions (id),
    winner INTEGER,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL,
    moves INTEGER NOT NULL,
    placement INTEGER NOT NULL DEFAULT 0,
    record TEXT NOT NULL,
    finished_at BIGINT NOT NULL
);
CREATE INDEX games_by_ladder ON games (ladder, number);

-- Each version's rating: a cache of the ratings recomputed from the games, kept in step in
-- the transaction that stores each game.
CREATE TABLE ratings (
    version_id BIGINT PRIMARY KEY REFERENCES versions (id),
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL
);
