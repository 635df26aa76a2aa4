-- SQLite's 0021. A rematch is agreed once, for one new game: ``opened`` is the game it
-- opened (NULL until then), set in the same transaction that creates, seats and starts
-- that game, so a click on a finished game's old Rematch button no longer opens another.
ALTER TABLE rematches ADD COLUMN opened BIGINT REFERENCES games (id);
-- Agreements every person seated had given were used up before this version by the game
-- they opened (or by a click refused for a busy channel): which game is not recorded, so
-- they go, and asking again starts afresh. Agreements still waiting for someone stay.
DELETE FROM rematches
WHERE jsonb_array_length(agreed::jsonb) >= (
    SELECT count(*) FROM seats s WHERE s.game_id = rematches.game_id AND s.ai IS NULL
);
