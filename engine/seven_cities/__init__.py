"""Battle for Seven Cities: time travellers, a past and a future board, action cards."""

from engine.seven_cities.game import SevenCities

__all__ = ["SevenCities"]
