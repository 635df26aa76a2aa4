"""Tools for the people who run and develop the bot: benchmarks, the load test and
self-play. The running bot never imports them; `python -m bot bench|selfplay` does."""
