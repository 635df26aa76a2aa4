-- SQLite's 0015 and 0016. A seat played by the bot's own AI: its level (easy, normal,
-- hard); NULL for a person, whose user id is a Discord user's (an AI's is negative).
ALTER TABLE seats ADD COLUMN ai TEXT;

-- Who has asked to play a finished game again (a JSON list of user ids).
CREATE TABLE rematches (
    game_id    BIGINT      PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    agreed     TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
