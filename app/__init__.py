"""Correspondence checkers service."""
