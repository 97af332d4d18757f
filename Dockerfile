# Pantheon in a slim image, run as a non-root user, with the SQLite file on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/pantheon.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY content ./content
COPY bench ./bench
RUN pip install --no-cache-dir -e . \
    && useradd --create-home --uid 10001 pantheon \
    && mkdir -p /data && chown pantheon:pantheon /data

USER pantheon
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
