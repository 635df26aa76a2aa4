-- Ratings per server and game (OpenSkill Plackett-Luce), and what they are built from.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;  -- 0: a casual game
ALTER TABLE games ADD COLUMN finished_at TEXT;                  -- the order ratings replay in

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,   -- 0 outside a server
    game_key   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game_key, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game_key);
