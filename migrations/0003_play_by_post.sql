-- Play by post: per-game clocks and reminders, per-seat turn timers, vacations, and an
-- outbox so every notice is claimed once in the database before it is delivered.
ALTER TABLE games ADD COLUMN move_hours REAL;                      -- time per move; NULL: none
ALTER TABLE games ADD COLUMN deadline_policy TEXT NOT NULL DEFAULT 'random'
    CHECK (deadline_policy IN ('skip', 'random', 'forfeit'));
ALTER TABLE games ADD COLUMN remind_hours REAL NOT NULL DEFAULT 24;
ALTER TABLE games ADD COLUMN reminder_limit INTEGER NOT NULL DEFAULT 3;
ALTER TABLE games ADD COLUMN status_message_id INTEGER;           -- the pinned status post
ALTER TABLE games ADD COLUMN reaction_hours REAL NOT NULL DEFAULT 12;  -- out-of-turn windows

ALTER TABLE seats ADD COLUMN turn_since TEXT;                      -- when the wait began
ALTER TABLE seats ADD COLUMN deadline TEXT;                        -- when the policy applies
ALTER TABLE seats ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0; -- sent during this wait
ALTER TABLE seats ADD COLUMN snoozed INTEGER NOT NULL DEFAULT 0;   -- no more reminders this turn
ALTER TABLE seats ADD COLUMN warned INTEGER NOT NULL DEFAULT 0;    -- deadline warning sent
ALTER TABLE seats ADD COLUMN reacting INTEGER NOT NULL DEFAULT 0;  -- awaited out of turn

ALTER TABLE user_settings ADD COLUMN vacation_days REAL NOT NULL DEFAULT 14;
ALTER TABLE user_settings ADD COLUMN vacation_until TEXT;

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    kind       TEXT    NOT NULL,          -- reminder, warning
    via        TEXT    NOT NULL CHECK (via IN ('channel', 'dm')),
    text       TEXT    NOT NULL,
    due_at     TEXT    NOT NULL,          -- not before (quiet hours push DMs back)
    created_at TEXT    NOT NULL,
    sent_at    TEXT
);
CREATE INDEX outbox_unsent ON outbox (due_at) WHERE sent_at IS NULL;
CREATE INDEX seats_deadline ON seats (deadline) WHERE awaiting = 1;
