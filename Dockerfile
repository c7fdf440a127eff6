# feytable: slim Python image, non-root user, migrations on start.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml ./
COPY app ./app
RUN pip install . && useradd --create-home --uid 10001 feytable && mkdir -p /app/data && chown feytable /app/data

COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static

USER feytable
EXPOSE 8000
# `serve` applies the migrations first.
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
