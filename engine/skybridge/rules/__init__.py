"""Skybridge's rules, one module per kind of action, in the order ``legal`` lists them."""

from engine.skybridge.rules import place

RULES = (place.RULE,)
