-- A seat played by the bot's own AI: its level (easy, normal, hard); NULL for a person.
-- Its user_id is negative, so it can never be a Discord user's.
ALTER TABLE seats ADD COLUMN ai TEXT;
