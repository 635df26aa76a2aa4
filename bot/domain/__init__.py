"""The bot's own rules, beyond the games': play-by-post clocks, the rating model, league pairing
and scoring. Pure functions, no I/O: the service and the store both use them."""
