"""Bridges and Boats' rules, one module per kind of action, in the order ``legal`` lists
them: the turn's steps as the rulebook orders them (RULINGS §5.2, §5.3, §5.5), the
ghost pilot's answer while a run waits, then the end of the turn."""

from engine.bridges_and_boats.rules import (
    advance,
    board,
    bomb,
    build,
    buy,
    convert,
    end,
    enter,
    fire,
    fly,
    keep,
    launch,
    reroll,
)

RULES = (
    buy.RULE,
    build.RULE,
    convert.RULE,
    advance.RULE,
    enter.RULE,
    board.RULE,
    launch.RULE,
    fire.RULE,
    fly.RULE,
    bomb.RULE,
    reroll.RULE,
    keep.RULE,
    end.RULE,
)
