"""Correspondence checkers service."""

from checkers_engine.build import package_version

# The service's distribution, beside the engine's (checkers-engine), which chooses its own
# build, compiled or pure, when first imported.
DISTRIBUTION = "checkers-service"

# The one version is pyproject.toml's, as installed.
__version__ = package_version(DISTRIBUTION)
