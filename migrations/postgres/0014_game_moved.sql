-- Open pages in every process hear a game move, whichever process moved it: a write that
-- bumps a game's version tells PostgreSQL's LISTEN/NOTIFY, in its own transaction, so a
-- write rolled back tells nobody (bot/store/postgres/listening.py listens).
-- The payload: '<game id> <version>'.
CREATE FUNCTION game_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('bridgekeeper_moved', NEW.id || ' ' || NEW.version);
    RETURN NULL;
END $$;
CREATE TRIGGER game_moved AFTER UPDATE OF version ON games
    FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version)
    EXECUTE FUNCTION game_moved();
