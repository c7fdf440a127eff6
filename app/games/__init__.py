"""The rules layer: one pure package per game, and the registry that lists them.

Nothing in here may import from the rest of `app`, do I/O, read a clock or use
global randomness. Randomness arrives as an explicit `random.Random`.
"""
