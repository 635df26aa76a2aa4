"""Bridge Wars' rules, one module per kind of action, in the order ``legal`` lists them:
the setup choice (only ever listed at setup), then the placements, then resigning."""

from engine.bridge_wars.rules import choose, place, resign

RULES = (choose.RULE, place.RULE, resign.RULE)
