"""Bridges and Boats: a river, one bridge, boats, planes, cannons and secret dominoes."""

from engine.bridges_and_boats.game import BridgesAndBoats

__all__ = ["BridgesAndBoats"]
