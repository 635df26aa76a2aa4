-- The daily Euler challenge: the server-side secret its dice come from, everyone's
-- attempt per UTC day, where it is announced, and which announcements were made.
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

CREATE TABLE daily_entries (
    day         TEXT    NOT NULL,      -- YYYY-MM-DD, UTC
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    guild_id    INTEGER,               -- where /daily play was asked, for the share line
    game_id     INTEGER NOT NULL REFERENCES games (id),
    status      TEXT    NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'won', 'tied', 'lost')),
    total       INTEGER,
    euler       INTEGER,
    finished_at TEXT,
    PRIMARY KEY (day, user_id)
);

CREATE TABLE daily_channels (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
);

CREATE TABLE daily_posts (
    day      TEXT    NOT NULL,
    guild_id INTEGER NOT NULL,
    PRIMARY KEY (day, guild_id)
);
