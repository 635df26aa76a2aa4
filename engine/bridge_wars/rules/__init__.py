"""Bridge Wars' rules, one module per kind of action, in the order ``legal`` lists them:
the setup choice (only ever listed at setup), then the placements."""

from engine.bridge_wars.rules import choose, place

RULES = (choose.RULE, place.RULE)
