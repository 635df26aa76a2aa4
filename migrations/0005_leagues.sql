-- Community leagues: the league, its members in join order, and every match of every round.
CREATE TABLE leagues (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,   -- rounds are announced here; matches get threads here
    name           TEXT    NOT NULL,
    game_key       TEXT    NOT NULL,
    format         TEXT    NOT NULL,
    table_size     INTEGER NOT NULL,
    rounds         INTEGER,            -- the organiser's choice; fixed at the start
    points         TEXT    NOT NULL,   -- JSON: league points by finishing place
    bye_points     INTEGER,
    round_hours    REAL    NOT NULL,
    move_hours     REAL,
    seed           INTEGER NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'running', 'finished')),
    round          INTEGER NOT NULL DEFAULT 0,
    round_deadline TEXT,
    starts_at      TEXT,               -- when sign-up closes by itself (NULL: started by hand)
    created_by     INTEGER NOT NULL,
    created_at     TEXT    NOT NULL,
    UNIQUE (guild_id, name)
);

CREATE TABLE league_members (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    joined    INTEGER NOT NULL,        -- join order: Swiss seeds equal scores by it
    dropped   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_matches (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('played', 'forfeit', 'bye')),
    players    TEXT    NOT NULL,       -- JSON: user ids in seat order
    game_id    INTEGER REFERENCES games (id),
    places     TEXT,                   -- JSON, once settled
    scores     TEXT,
    forfeiting TEXT,
    settled    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX league_matches_round ON league_matches (league_id, round);

-- Per-server choices: which role may organise leagues besides server managers.
CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    organiser_role INTEGER
);
