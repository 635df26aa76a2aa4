-- A daily attempt is settled by the game's last move, in its own transaction; sharing
-- the outcome in the server's daily channel follows on the next tick. share_pending marks
-- a settled attempt whose share line is still to be posted (rows settled before this
-- migration were shared when they were settled).
ALTER TABLE daily_entries ADD COLUMN share_pending INTEGER NOT NULL DEFAULT 0;
