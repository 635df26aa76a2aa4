"""Community leagues, the pure part: formats, pairings, results and standings."""
