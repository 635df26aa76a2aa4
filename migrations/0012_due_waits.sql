-- When each running wait is next due (a reminder, a warning, a deadline, the end of a
-- reaction window; bot/clocks.py says which), written by the store in the same
-- transaction as whatever moves it. The once-a-minute tick reads only the waits due
-- through this index, instead of every waiting seat of every game ever stored.
ALTER TABLE seats ADD COLUMN due_at TEXT;  -- NULL: nothing is due until the wait changes
CREATE INDEX seats_due ON seats (due_at) WHERE due_at IS NOT NULL;

-- Waits already running: '' sorts before every timestamp, so the first tick after the
-- upgrade looks at each of them once, does what is due exactly as before, and stores
-- the moment of the next step.
UPDATE seats SET due_at = ''
WHERE awaiting = 1 AND game_id IN (SELECT id FROM games WHERE status = 'active');

-- A change the store did not make (an operator's fix by hand, say) cannot work a due
-- time out, so any change to what decides one marks the waits it touches as due at once;
-- the next tick looks at them. The store's own writes store the exact time right after,
-- in the same transaction. INSERT OR REPLACE of settings is a delete and an insert.
CREATE TRIGGER seats_due_follows AFTER UPDATE OF
    awaiting, turn_since, deadline, reminders, snoozed, warned, reacting, user_id ON seats
WHEN NEW.due_at IS OLD.due_at AND (NEW.awaiting = 1 OR NEW.due_at IS NOT NULL)
BEGIN
    UPDATE seats SET due_at = CASE WHEN NEW.awaiting = 1 THEN '' END
    WHERE game_id = NEW.game_id AND seat = NEW.seat;
END;

CREATE TRIGGER games_due_follows AFTER UPDATE OF
    status, move_hours, remind_hours, reminder_limit, reaction_hours ON games
WHEN NEW.status IS NOT OLD.status OR NEW.move_hours IS NOT OLD.move_hours
    OR NEW.remind_hours IS NOT OLD.remind_hours OR NEW.reminder_limit IS NOT OLD.reminder_limit
    OR NEW.reaction_hours IS NOT OLD.reaction_hours
BEGIN
    UPDATE seats SET due_at = '' WHERE game_id = NEW.id AND awaiting = 1;
END;

CREATE TRIGGER vacation_due_follows AFTER INSERT ON user_settings
BEGIN
    UPDATE seats SET due_at = '' WHERE user_id = NEW.user_id AND awaiting = 1;
END;

CREATE TRIGGER vacation_change_due_follows AFTER UPDATE OF vacation_until ON user_settings
WHEN NEW.vacation_until IS NOT OLD.vacation_until
BEGIN
    UPDATE seats SET due_at = '' WHERE user_id = NEW.user_id AND awaiting = 1;
END;
