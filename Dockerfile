# One image for every process of a Trick-n-Chef deployment: the web server (gunicorn, the default
# command), the Celery worker and the beat scheduler (docker-compose.yml gives them their
# commands). Configuration comes from the environment at run time (.env.example lists it); the
# image holds no secret. docs/operations.md explains how to run it.
# The translations (locale/*/LC_MESSAGES/django.po) compiled into the .mo files Django reads, in
# a stage of their own: GNU gettext's msgfmt is needed to build them, never to run the site, so
# it stays out of the image. The .mo files are build output: the repository holds only the .po.
FROM python:3.11-slim AS catalogues
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
COPY locale/ /locale/
RUN for po in /locale/*/LC_MESSAGES/django.po; do \
        msgfmt --check --output-file="${po%.po}.mo" "$po" || exit 1; \
    done

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# The processes run as this unprivileged user. It owns only var/ (collected static files);
# the code stays root's and read-only to it.
RUN groupadd --system --gid 10001 tnc \
    && useradd --system --uid 10001 --gid tnc --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin tnc

WORKDIR /app

# Dependencies first, in a layer of their own that is rebuilt only when pyproject.toml or
# constraints.txt change: with no source code copied yet, `pip install .` installs the
# project's runtime dependencies (no test extras) at the pinned versions, and a project
# distribution without modules. The code itself runs from /app (PYTHONPATH below).
COPY pyproject.toml constraints.txt ./
RUN pip install -c constraints.txt . \
    && rm -rf build ./*.egg-info

COPY . .
COPY --from=catalogues /locale/ ./locale/
# Byte-compiled now, since the processes cannot write to /app; var/ is theirs (collectstatic
# writes var/static at each web start: docker/entrypoint.sh).
RUN python -m compileall -q config engine games tournaments docker \
    && mkdir -p var/static \
    && chown -R tnc:tnc var \
    && chmod 0755 docker/entrypoint.sh

# Production settings unless the environment says otherwise (manage.py and Celery would
# otherwise default to the development settings). PYTHONPATH: celery finds `config` (and
# Django the apps) in /app whatever the working directory. WEB_CONCURRENCY is gunicorn's own
# variable for its number of worker processes; each runs two threads (the CMD's --threads):
# the seats' phones poll twice a second and mostly wait on the database. Three processes of two
# threads on two cores kept every request's p99 under 100 ms with 50 tables of four phones
# (benchmarks/phones.py, docs/operations.md).
ENV DJANGO_SETTINGS_MODULE=config.settings.production \
    PYTHONPATH=/app \
    WEB_CONCURRENCY=3

# tnc, by number: a runtime that checks "not root" (Kubernetes' runAsNonRoot) can tell.
USER 10001:10001

EXPOSE 8000

# GET /health/ (database and broker) with Python's urllib: the slim image has no curl.
# Worker and beat containers replace this check with their own (docker-compose.yml).
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]

# collectstatic before the web server starts; `migrate` and `as-owner COMMAND` are the owner's
# one-off work (docker-compose.yml's migrate service); any other command runs as given.
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--threads", "2", \
     "--access-logfile", "-", "--error-logfile", "-", "--no-control-socket"]
