# The service image (installed editable: migrations are found beside the app package):
# one process serving the pages and the API; `checkers worker` runs the
# deadline sweep alone when SCHEDULER_ENABLED=false is set on the web processes.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/checkers

COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY alembic.ini ./
# The Executive's endgame tables, solved once here (see README; EGDB_PIECES=0 skips them).
ARG EGDB_PIECES=4
ENV CHECKERS_EGDB_DIR=/srv/checkers/egdb
RUN pip install --editable . \
    && if [ "$EGDB_PIECES" -gt 1 ]; then checkers egdb build all --pieces "$EGDB_PIECES" --quiet; fi \
    && useradd --system --home-dir /srv/checkers --shell /usr/sbin/nologin checkers \
    && chown -R checkers /srv/checkers

USER checkers
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
    CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]
CMD ["checkers", "serve"]
