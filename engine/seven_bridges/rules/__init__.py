"""Seven Bridges' rules, one module per kind of action, in the order ``legal`` lists them."""

from engine.seven_bridges.rules import (
    bonus,
    choose,
    discard,
    distribute,
    downgrade,
    pick,
    reroll,
    reserve,
    roll,
)

RULES = (
    choose.RULE,
    bonus.RULE,
    reserve.RULE,
    roll.RULE,
    pick.RULE,
    discard.RULE,
    downgrade.RULE,
    reroll.RULE,
    distribute.RULE,
)
