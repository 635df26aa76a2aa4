-- Who holds a notice's claim: a token naming the process and the claim. A process that
-- stalled past its claim (frozen longer than the claim lasts) may find another process
-- took the notice over meanwhile: just before sending, it extends the claim only while
-- the token is still its own, and sends nothing otherwise, so the notice goes out once.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
