-- Per-user preferences, and take-back requests that wait for the other players.
CREATE TABLE user_settings (
    user_id     INTEGER PRIMARY KEY,
    notify      TEXT    NOT NULL DEFAULT 'channel' CHECK (notify IN ('channel', 'dm', 'both', 'off')),
    timezone    TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start INTEGER,                   -- hour of day, local time
    quiet_end   INTEGER
);

CREATE TABLE undo_requests (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,           -- who asked
    moves      INTEGER NOT NULL,           -- how many moves it takes back
    version    INTEGER NOT NULL,           -- the game version it was asked at
    agreed     TEXT    NOT NULL DEFAULT '[]',  -- user ids that said yes
    created_at TEXT    NOT NULL
);
