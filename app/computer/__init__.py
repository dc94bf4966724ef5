"""Games against the computer: rooms whose tires seat the computer holds."""
