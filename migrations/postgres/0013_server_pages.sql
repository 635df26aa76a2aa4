-- SQLite's 0027. A server's page on the web lists its games in progress only when its
-- managers turn it on: off for every server until then.
ALTER TABLE guild_settings ADD COLUMN page BOOLEAN NOT NULL DEFAULT FALSE;
-- A player's page finds their games and their moves by who they are.
CREATE INDEX seats_user ON seats (user_id);
CREATE INDEX moves_user ON moves (user_id);
