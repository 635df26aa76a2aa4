-- Games, their seats and the append-only move log: the heart of the store.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,                 -- NULL in a DM or the terminal
    channel_id    INTEGER NOT NULL,
    game_key      TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options       TEXT    NOT NULL DEFAULT '{}',
    seed          INTEGER NOT NULL,
    state         TEXT,                    -- cached state JSON; the move log is the truth
    version       INTEGER NOT NULL DEFAULT 0,  -- bumped by every change, checked by every write
    creator_id    INTEGER NOT NULL,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    turn_deadline TEXT,
    league_match  INTEGER
);
-- One live game per channel or thread.
CREATE UNIQUE INDEX games_live_channel ON games (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    awaiting INTEGER NOT NULL DEFAULT 0,   -- 1 while the game waits for this seat
    place    INTEGER,                      -- finishing place once the game is over
    score    INTEGER,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_awaiting ON seats (user_id) WHERE awaiting = 1;

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,           -- 1, 2, 3 ... per game
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    kind       TEXT    NOT NULL DEFAULT 'move' CHECK (kind IN ('move', 'undo', 'skip')),
    action     TEXT    NOT NULL,           -- the move's notation; for an undo how many moves
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
