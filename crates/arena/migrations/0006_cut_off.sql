-- People's games cut off by the arena stopping, dropped at its restart (they count nowhere):
-- kept so that a person coming back to such a game's page is told what became of it.
CREATE TABLE cut_off (
    scheduled_id BIGINT PRIMARY KEY,
    ladder TEXT NOT NULL,
    first_version BIGINT NOT NULL,
    second_version BIGINT NOT NULL,
    at BIGINT NOT NULL
);
