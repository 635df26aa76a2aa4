-- Work that one process at a time may do, whichever of several processes sharing the
-- database gets there first (a league's step, say): held by ``holder`` until ``until``,
-- so a process that dies holding one leaves it to the next once it runs out.
CREATE TABLE leases (
    name   TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  TEXT NOT NULL
);
