"""Delivery of the rooms' notifications: Web Push (VAPID, RFC 8291 encryption) and email."""
