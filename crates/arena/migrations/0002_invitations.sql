-- Invitations to a game between people: to a named user, or open to anyone (to_user NULL).
-- A waiting invitation past expires_at is expired, whatever its state says; an accepted one
-- names its game (the queue's id, which the stored game keeps as scheduled_id).
CREATE TABLE invitations (
    id BIGINT PRIMARY KEY,
    ladder TEXT NOT NULL REFERENCES ladders (name),
    from_user BIGINT NOT NULL REFERENCES users (id),
    to_user BIGINT REFERENCES users (id),
    state TEXT NOT NULL,
    game_id BIGINT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX invitations_by_state ON invitations (state, expires_at);
