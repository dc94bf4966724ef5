"""Recorded games imported from PDN: replayed through the engine, stored outside any room,
each with a read-only replay and its own PDN."""
