# feytable: slim Python image, non-root user, migrations on start.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

# Dependencies first (cached layer), then the source, installed in place so
# templates/, static/ and migrations/ sit beside the app package.
COPY pyproject.toml ./
RUN mkdir app && touch app/__init__.py && pip install -e . && rm -rf app
COPY app ./app
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install --no-deps -e . \
 && useradd --create-home --uid 10001 feytable \
 && mkdir -p /app/data && chown feytable /app/data

USER feytable
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
# `serve` applies the migrations first.
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
