# Pantheon in a slim image: the locked dependencies in their own layer, the bot installed from its
# wheel (the shipped content inside it) with no copy of the sources, run as a non-root user, the
# SQLite file on a volume, a health check that asks whether the bot is connected, and a clean stop
# on SIGTERM (`docker stop`). The image's command is `pantheon`: `docker run ... pantheon` runs
# the bot, `docker run -it ... pantheon play deathly-thrones` the local table.

# 1. The wheel, built from the sources (this stage is thrown away).
FROM python:3.11-slim AS wheel
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY bot ./bot
COPY rules ./rules
COPY content ./content
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

# 2. The image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/pantheon.db \
    HEARTBEAT_PATH=/tmp/pantheon-heartbeat \
    PANTHEON_COMMAND="docker run -it --rm -v pantheon-data:/data pantheon"
# (PANTHEON_COMMAND: how the guides the program prints write its command in this image)

# The dependencies only, at the exact versions the tests passed with: this layer is rebuilt when
# pyproject.toml or the lock changes, not on every code change.
COPY pyproject.toml requirements.lock /tmp/deps/
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/deps/pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/deps/runtime.txt \
    && pip install --no-cache-dir -c /tmp/deps/requirements.lock -r /tmp/deps/runtime.txt \
    && rm -rf /tmp/deps

# The bot: its wheel only (the games, their renderers and their content all inside it).
COPY --from=wheel /wheels /tmp/wheels
RUN pip install --no-cache-dir --no-deps /tmp/wheels/*.whl \
    && rm -rf /tmp/wheels \
    && useradd --create-home --uid 10001 pantheon \
    && mkdir -p /data && chown pantheon:pantheon /data

USER pantheon
WORKDIR /home/pantheon
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["pantheon", "health"]
# exec form: Python is PID 1 and handles SIGTERM itself (closes the gateway and the database)
ENTRYPOINT ["pantheon"]
