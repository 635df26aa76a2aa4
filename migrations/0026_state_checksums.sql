-- Each game's stored state carries the CRC-32 of its UTF-8 text, written with it. A byte
-- damaged inside the state passes SQLite's integrity check (which checks pages and
-- indexes, not values) but not this: the bot then rebuilds the state from the move log,
-- the game's source of truth, or, where the log cannot rebuild it, names the damaged game
-- and lets it be called off. NULL for a state written before this migration (checked by
-- parsing it instead) and for a lobby, which has no state.
ALTER TABLE games ADD COLUMN state_crc INTEGER;
