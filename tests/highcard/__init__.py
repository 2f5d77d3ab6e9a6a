"""Highcard: a third game that lives only in the tests, to prove that a game is one
package plus one adapter (games.adapter) and one registry entry — no shared module
names it. See `installed` (tests.highcard.game) for how the tests offer it.
"""
