# syntax=docker/dockerfile:1
# The service image, built in two stages from the lock files (`make lock`):
# - build: a C compiler (the engine, engine/, compiles its hot modules with mypyc when one
#   is there), the locked build tools, and two wheels: the engine's, then the service's;
# - runtime: no compiler; the locked dependencies (a layer that changes only with the
#   lock), then the engine's wheel and the service's. Migrations and alembic.ini sit in the working directory, where
#   `checkers migrate` and `checkers serve` find them.
# One process serves the pages and the API; `checkers worker` runs the scheduled jobs
# alone when SCHEDULER_ENABLED=false is set on the web processes (see docker-compose.yml).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The build tools, pinned with hashes; the wheel is built with them (no isolation, so
# nothing unpinned is fetched).
COPY requirements-build.txt ./
RUN pip install --require-hashes --no-deps -r requirements-build.txt
COPY engine/pyproject.toml engine/setup.py engine/README.md ./engine/
COPY engine/src ./engine/src
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheels/engine ./engine \
    && python -m zipfile -l /wheels/engine/*.whl | grep -q 'compiled__mypyc'  # the compiled build, or fail
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheels/service .

FROM ${PYTHON_IMAGE} AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /srv/checkers
# Dependencies first: this layer is rebuilt only when the lock changes.
COPY requirements.txt ./
RUN pip install --require-hashes --no-deps -r requirements.txt \
    && useradd --system --home-dir /srv/checkers --shell /usr/sbin/nologin checkers
COPY --from=build /wheels ./wheels
# The engine first, then the service that depends on it (the lock leaves the engine out).
RUN pip install --no-deps ./wheels/engine/*.whl \
    && pip install --no-deps ./wheels/service/*.whl \
    && rm -rf ./wheels
COPY alembic.ini ./
COPY migrations ./migrations
# The Executive's endgame tables, solved once here (README; EGDB_PIECES=0 skips them):
# about 10 minutes of CPU for the six rule sets, 4.4 MB, read by the service's processes.
ARG EGDB_PIECES=4
ENV CHECKERS_EGDB_DIR=/srv/checkers/egdb
# The directory is the service's, so it can build what is missing on first use (README).
RUN if [ "$EGDB_PIECES" -gt 1 ]; then checkers egdb build all --pieces "$EGDB_PIECES" --quiet; fi \
    && mkdir -p "$CHECKERS_EGDB_DIR" && chown checkers "$CHECKERS_EGDB_DIR"

USER checkers
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
# Asks the port the service was configured with (PORT), not a fixed one.
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('PORT', '8000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=2).status == 200 else 1)"]
CMD ["checkers", "serve"]
