-- Names are told apart ignoring ASCII case (all a name may hold): 'Alice' cannot sign up beside
-- 'alice', nor a bot 'Rocket' be made beside 'rocket' on a ladder, so that nobody passes for
-- another on a leaderboard. The unique indexes hold it under sign-ups at once too.
-- Names taken before differing only in case are kept (each still logs in and plays as before):
-- each after the first of its name (by id) is a case twin, left out of the index.
ALTER TABLE users ADD COLUMN case_twin INTEGER NOT NULL DEFAULT 0;
UPDATE users SET case_twin = 1 WHERE EXISTS (SELECT 1 FROM users AS earlier
    WHERE LOWER(earlier.name) = LOWER(users.name) AND earlier.id < users.id);
CREATE UNIQUE INDEX users_by_lowered_name ON users (LOWER(name)) WHERE case_twin = 0;

ALTER TABLE bots ADD COLUMN case_twin INTEGER NOT NULL DEFAULT 0;
UPDATE bots SET case_twin = 1 WHERE EXISTS (SELECT 1 FROM bots AS earlier
    WHERE earlier.ladder = bots.ladder AND LOWER(earlier.name) = LOWER(bots.name)
    AND earlier.id < bots.id);
CREATE UNIQUE INDEX bots_by_lowered_name ON bots (ladder, LOWER(name)) WHERE case_twin = 0;
