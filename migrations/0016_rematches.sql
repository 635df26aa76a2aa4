-- Who has asked to play a finished game again: once every person seated has, the
-- rematch opens. ``agreed`` is a JSON list of user ids.
CREATE TABLE rematches (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    agreed     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
