# Pantheon in a slim image: the locked dependencies in their own layer, the bot installed
# (not editable) as a non-root user, the SQLite file on a volume, a health check that asks
# whether the bot is connected, and a clean stop on SIGTERM (`docker stop`).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/pantheon.db \
    HEARTBEAT_PATH=/tmp/pantheon-heartbeat

WORKDIR /app

# 1. Dependencies only (this layer is rebuilt when pyproject.toml or the lock changes, not on
#    every code change), at the exact versions the tests passed with.
COPY pyproject.toml requirements.lock ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/runtime.txt \
    && pip install --no-cache-dir -c requirements.lock -r /tmp/runtime.txt

# 2. The bot itself. The games and their renderers are found through the package's entry
#    points; the code runs from /app, where the shipped content/ lives beside it.
COPY README.md LICENSE ./
COPY bot ./bot
COPY rules ./rules
COPY content ./content
RUN pip install --no-cache-dir --no-deps . \
    && useradd --create-home --uid 10001 pantheon \
    && mkdir -p /data && chown pantheon:pantheon /data

USER pantheon
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
# exec form: Python is PID 1 and handles SIGTERM itself (closes the gateway and the database)
CMD ["python", "-m", "bot"]
