"""How many games a campaign may ask for: in a module of its own, where `azul fuzz --help` reads it without loading a
campaign."""

MAX_GAMES = 10 ** 12  # more games than a campaign plays (a million a day for 2,700 years)
