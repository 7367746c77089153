-- Casual games: a game with rated = 0 (a person's casual game, a friendly match between bots)
-- is stored and shown like any other but never enters the ratings, nor matchmaking's choice.
-- A friendly's queue rows name who asked for them, so that nobody fills the queue.
ALTER TABLE scheduled ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE scheduled ADD COLUMN requested_by BIGINT REFERENCES users (id);
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE invitations ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
