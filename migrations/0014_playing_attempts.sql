-- Each minute the daily pass looks for attempts still marked as playing whose game has
-- ended (a safety net for rows from before the finishing move settled its attempt); it
-- read every daily result ever played to find them. Attempts in play are a day's worth
-- at most, and have an index of their own now.
CREATE INDEX daily_entries_playing ON daily_entries (day, user_id) WHERE status = 'playing';
