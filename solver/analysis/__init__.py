"""The analysis layer: what a player or an analyst asks of the engine and the game.

It sits on top of everything else (engine, optimiser, game, players) and nothing below
imports it: simulated matches and their statistics live here.
"""
