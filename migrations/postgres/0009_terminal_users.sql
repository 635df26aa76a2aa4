-- SQLite's 0023. The terminal's people (``python -m bot console``): each name typed at
-- the keyboard is one user, the same in every session on this database. ``name`` is the
-- name as the terminal compares it (in lower case). A ``user_id`` is below 2^22
-- (4194304), which no Discord user's id can be: a snowflake holds the milliseconds since
-- 2015 above its 22 low bits. So a database Discord also uses never takes one for the other.
CREATE TABLE terminal_users (
    name    TEXT   PRIMARY KEY,
    user_id BIGINT NOT NULL UNIQUE
);
-- Sessions before this numbered their users in the order each first typed: each name
-- keeps the id it last played under, unless that id has played under another name since.
INSERT INTO terminal_users (name, user_id)
SELECT name, user_id FROM (
    SELECT lower(name) AS name, user_id,
        ROW_NUMBER() OVER (PARTITION BY lower(name) ORDER BY game_id DESC) AS by_name,
        ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY game_id DESC) AS by_id
    FROM seats WHERE user_id BETWEEN 1 AND 4194303
) AS latest WHERE by_name = 1 AND by_id = 1;
