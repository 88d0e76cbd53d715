#!/bin/sh
# The web image's /docker-entrypoint.d/30-courtside-localstripe.sh (deploy/docker/web.Dockerfile):
# when LOCALSTRIPE_UPSTREAM names a localstripe (docker-compose.yml: localstripe:8420), renders
# deploy/nginx/localstripe.conf.template into the snippets' optional/ folder, which the main
# template includes, so /stripe/ proxies to it; unset (Kubernetes, pointed at Stripe), /stripe/
# does not exist. The same template ./deploy/up.sh renders when it starts a localstripe.
set -eu
dir="${NGINX_SNIPPET_DIR:-/etc/nginx/snippets}/optional"
mkdir -p "$dir"
rm -f "$dir/localstripe.conf"
if [ -n "${LOCALSTRIPE_UPSTREAM:-}" ]; then
  # shellcheck disable=SC2016 # the variable names envsubst replaces, not their values
  envsubst '${LOCALSTRIPE_UPSTREAM} ${NGINX_SNIPPET_DIR}' \
    </etc/nginx/optional-templates/localstripe.conf.template >"$dir/localstripe.conf"
  echo "$0: /stripe/ proxies to localstripe at $LOCALSTRIPE_UPSTREAM"
fi
