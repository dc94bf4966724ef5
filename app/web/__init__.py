"""The web pages: templates, static ES modules, CSS and SVG, and their routes."""
