"""The rooms domain: invite rooms, seats, games, moves, offers, deadlines and events."""
