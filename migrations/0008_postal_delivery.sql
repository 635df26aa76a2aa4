-- Play by post, delivered once: each notice belongs to one wait (it lapses when the
-- wait ends), is claimed by one deliverer before it is sent, and is retried a bounded
-- number of times; a seat remembers how much of its deadline is vacation.
ALTER TABLE outbox ADD COLUMN turn_since TEXT;    -- the wait it belongs to (seats.turn_since)
ALTER TABLE outbox ADD COLUMN claimed_at TEXT;    -- taken by a deliverer, not yet sent
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN dropped TEXT;       -- why it was never sent: 'moved' or 'failed'
ALTER TABLE seats ADD COLUMN paused_hours REAL NOT NULL DEFAULT 0;  -- vacation in the deadline
