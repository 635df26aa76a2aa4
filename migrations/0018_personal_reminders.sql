-- Reminders as each player asks for them (/settings): their own cadence, which overrides
-- each game's remind_every for their waits; or one digest a day, at an hour of their own
-- time zone, instead of reminders; and a heads-up when the player before them begins.
ALTER TABLE user_settings ADD COLUMN remind_hours REAL CHECK (remind_hours > 0);  -- NULL: each game's
ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE user_settings ADD COLUMN digest_at TEXT;  -- when the next digest is due (UTC)
ALTER TABLE user_settings ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0;
-- the minute's pass reads only the digests due, however many players are stored
CREATE INDEX user_settings_digest ON user_settings (digest_at) WHERE digest_at IS NOT NULL;

-- told they are next, once, until their own turn begins
ALTER TABLE seats ADD COLUMN told_next INTEGER NOT NULL DEFAULT 0;

-- A digest lists games of several servers: it belongs to none, so a notice's game may
-- be NULL now. SQLite cannot drop a NOT NULL in place: the table is copied.
CREATE TABLE outbox_new (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,  -- NULL: a daily digest
    user_id    INTEGER NOT NULL,
    kind       TEXT    NOT NULL,          -- turn, reminder, warning, heads_up, digest
    via        TEXT    NOT NULL CHECK (via IN ('channel', 'dm')),
    text       TEXT    NOT NULL,
    due_at     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    sent_at    TEXT,
    turn_since TEXT,
    claimed_at TEXT,
    attempts   INTEGER NOT NULL DEFAULT 0,
    dropped    TEXT
);
INSERT INTO outbox_new (id, game_id, user_id, kind, via, text, due_at, created_at, sent_at,
                        turn_since, claimed_at, attempts, dropped)
SELECT id, game_id, user_id, kind, via, text, due_at, created_at, sent_at,
       turn_since, claimed_at, attempts, dropped FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (due_at) WHERE sent_at IS NULL AND dropped IS NULL;

-- A change of cadence by hand (the store's own writes store the exact due time after)
-- marks the player's waits as due at once, as 0012's triggers do for the rest.
CREATE TRIGGER reminders_due_follows AFTER UPDATE OF remind_hours, digest_hour ON user_settings
WHEN NEW.remind_hours IS NOT OLD.remind_hours
    OR (NEW.digest_hour IS NULL) IS NOT (OLD.digest_hour IS NULL)
BEGIN
    UPDATE seats SET due_at = '' WHERE user_id = NEW.user_id AND awaiting = 1;
END;
