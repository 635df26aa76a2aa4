-- SQLite's 0026. Each game's stored state carries the CRC-32 of its UTF-8 text, written
-- with it: a damaged value is told from a good one when the game is read, and the bot
-- rebuilds it from the move log or names the damaged game. NULL for a state written
-- before this migration and for a lobby.
ALTER TABLE games ADD COLUMN state_crc BIGINT;
