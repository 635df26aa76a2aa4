-- Fair play: the extra time one turn has been given with /game extend, so the total can be
-- capped (a creator cannot push a clock out without end). A new wait starts again from 0.
ALTER TABLE seats ADD COLUMN extended_hours REAL NOT NULL DEFAULT 0;
