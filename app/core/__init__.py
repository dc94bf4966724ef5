"""Infrastructure shared by the domains: settings, database, clock, logging."""
