# One image for the web server (gunicorn), the live streams (uvicorn) and the Celery worker.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY tournaments ./tournaments
COPY pairings ./pairings
COPY standings ./standings
COPY rulesets ./rulesets
COPY interchange ./interchange
RUN pip install --no-cache-dir .
COPY manage.py ./
COPY templates ./templates
COPY static ./static
COPY locale ./locale
RUN python -m config.catalogue
RUN SECRET_KEY=build python manage.py collectstatic --noinput --verbosity 0
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
