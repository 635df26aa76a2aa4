-- SQLite's 0024. A league's posts are made after the transaction that stores what they
-- tell, and marked made once Discord took them: a process that dies in between leaves
-- them to the next pass. ``post_pending``: the match's game is open, its first board not
-- posted yet (set in the game's own transaction). ``news_pending``: the league's latest
-- news (its current round's announcement, or its final standings) is not posted yet.
ALTER TABLE league_matches ADD COLUMN post_pending BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE leagues ADD COLUMN news_pending BOOLEAN NOT NULL DEFAULT FALSE;
