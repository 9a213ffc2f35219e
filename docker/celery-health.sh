#!/bin/sh
# docker/celery-health.sh NODE: the worker's and beat's healthcheck (exit 0 healthy, 1 not).
#
# Healthy when this container's Celery node (NODE@$HOSTNAME: "celery" for the worker,
# "celerybeat" for beat, which runs with --enable-remote-control) answers a ping through the
# broker: it is up, connected, and its loop runs. The ping costs about a second of CPU (celery
# loads the app), so it runs only when needed: a ping that answered is trusted for
# TNC_HEALTH_PING_SECONDS (60) and the check, every few seconds, then only compares a file's
# age. So a container is healthy at the first check after its node answers (not a whole
# interval later), a node that stops answering is seen within a minute and the retries, and the
# steady cost is one ping a minute. The stamp lives in $TMPDIR (default /tmp), the container's
# own.
set -u
node="$1@${HOSTNAME:?}"
stamp="${TMPDIR:-/tmp}/tnc-health-$1"
trust=${TNC_HEALTH_PING_SECONDS:-60}

if [ -f "$stamp" ]; then
    age=$(($(date +%s) - $(stat -c %Y "$stamp")))
    if [ "$age" -ge 0 ] && [ "$age" -lt "$trust" ]; then
        exit 0
    fi
fi
# With a destination, inspect returns as soon as that node replies; the timeout is for a node
# that does not (then inspect exits non-zero).
if celery --app=config inspect ping --destination="$node" --timeout=5; then
    touch "$stamp"
    exit 0
fi
rm -f "$stamp"
exit 1
