-- Every game a channel has held, newest first: what /game board, status and history read
-- once a game is over, and what a refusal in a channel with no live game looks up. Without
-- it each such look-up reads every game ever played.
CREATE INDEX games_channel ON games (channel_id, id);
