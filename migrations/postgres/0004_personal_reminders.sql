-- SQLite's 0018. Reminders as each player asks for them (/settings): their own cadence,
-- which overrides each game's remind_every for their waits; or one digest a day, at an
-- hour of their own time zone, instead of reminders; and a heads-up when the player
-- before them begins.
ALTER TABLE user_settings
    ADD COLUMN remind_hours DOUBLE PRECISION CHECK (remind_hours > 0),  -- NULL: each game's
    ADD COLUMN digest_hour  INTEGER CHECK (digest_hour BETWEEN 0 AND 23),
    ADD COLUMN digest_at    TIMESTAMPTZ,                                -- the next digest
    ADD COLUMN heads_up     BOOLEAN NOT NULL DEFAULT FALSE;
-- the minute's pass reads only the digests due, however many players are stored
CREATE INDEX user_settings_digest ON user_settings (digest_at) WHERE digest_at IS NOT NULL;

-- told they are next, once, until their own turn begins
ALTER TABLE seats ADD COLUMN told_next BOOLEAN NOT NULL DEFAULT FALSE;

-- a digest lists games of several servers: it belongs to none
ALTER TABLE outbox ALTER COLUMN game_id DROP NOT NULL;

-- A change of cadence by hand (the store's own writes store the exact due time after)
-- marks the player's waits as due at once, as a vacation's does.
CREATE TRIGGER reminders_due_follows AFTER UPDATE OF remind_hours, digest_hour ON user_settings
    FOR EACH ROW WHEN (NEW.remind_hours IS DISTINCT FROM OLD.remind_hours
                       OR (NEW.digest_hour IS NULL) IS DISTINCT FROM (OLD.digest_hour IS NULL))
    EXECUTE FUNCTION vacation_due_follows();
