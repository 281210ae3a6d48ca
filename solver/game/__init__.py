"""The game around the engine: rulesets, the card exchange, scoring, what a
player sees and must answer (views and the player protocol), match play and records.

Nothing here imports the bundled players or the analysis layer; players depend on
this package, never the reverse.
"""
