-- The minute's other reads, kept to what is pending. A notice dropped (its wait ended
-- first, or every try failed) keeps sent_at NULL for good, so the index of unsent
-- notices grew with every notice ever dropped, and each minute's delivery pass read them
-- all; only notices still to deliver are indexed now. Settled daily results waiting to
-- be shared get an index of their own, where each minute read every result ever played.
DROP INDEX outbox_unsent;
CREATE INDEX outbox_pending ON outbox (due_at) WHERE sent_at IS NULL AND dropped IS NULL;
CREATE INDEX daily_entries_to_share ON daily_entries (day, user_id) WHERE share_pending = 1;
