-- The order ratings were updated in, so a rebuild replays games exactly as they were rated.
-- Finish times cannot say it: two games may finish in the same instant, and games finished
-- before 0004 have none. Numbered once, when a game is rated (bot/store.py, Store._rate).
ALTER TABLE games ADD COLUMN rating_seq INTEGER;
CREATE UNIQUE INDEX games_rating_seq ON games (rating_seq);

-- Games finished so far are numbered in the order the rebuild has always replayed them
-- (those without a finish time first, then by finish time, then by id), so a database
-- whose ratings were rebuilt before this migration still rebuilds to the same numbers.
WITH ordered AS (
    SELECT id, ROW_NUMBER() OVER (ORDER BY finished_at, id) AS n
    FROM games WHERE status = 'finished' AND rated = 1
)
UPDATE games SET rating_seq = (SELECT n FROM ordered WHERE ordered.id = games.id)
WHERE id IN (SELECT id FROM ordered);
