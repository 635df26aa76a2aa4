"""Battle for Seven Cities' rules, one module per kind of action (``play``: one per card),
in the order ``legal`` lists them."""

from engine.seven_cities.rules import (
    build,
    discard,
    end,
    found,
    move,
    pass_,
    place,
    play,
    points,
    recall,
    start,
    time,
)

RULES = (
    start.RULE,
    points.RULE,
    move.RULE,
    time.RULE,
    build.RULE,
    play.RULE,
    place.RULE,
    found.RULE,
    recall.RULE,
    discard.RULE,
    pass_.RULE,
    end.RULE,
)
