-- SQLite's 0019. A 'board' notice stands in for the public post of a move a timer made
-- (a deadline, an AI seat's move): queued in the move's own transaction, due a few
-- minutes later, for the move ``seq`` of its game. The process that made the move posts
-- it at once and marks this sent; if that process died first, whichever process delivers
-- notices posts it then, rebuilt from the move log.
ALTER TABLE outbox ADD COLUMN seq INTEGER;
