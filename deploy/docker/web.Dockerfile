# nginx with the web build: the same template up.sh renders (deploy/nginx/courtside.conf.template),
# rendered here by the nginx image from /etc/nginx/templates at start.
#   docker build -f deploy/docker/web.Dockerfile -t courtside/web:0.1.0 .
FROM node:20-bookworm-slim AS build
WORKDIR /web
COPY web/package.json web/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# Runs as an unprivileged user (uid 101) and listens on 8080.
FROM nginxinc/nginx-unprivileged:1.27-alpine
# The template renders conf.d/default.conf at start; a base image that ships a read-only one (the
# local stand-in does) would refuse the rendered file.
RUN rm -f /etc/nginx/conf.d/default.conf
COPY deploy/nginx/courtside.conf.template /etc/nginx/templates/default.conf.template
COPY deploy/nginx/security-headers.conf /etc/nginx/snippets/security-headers.conf
# /stripe/ to a localstripe, rendered at start only when LOCALSTRIPE_UPSTREAM is set (compose),
# into a folder nginx's user may write (the script is executable in the repository).
COPY deploy/nginx/localstripe.conf.template /etc/nginx/optional-templates/localstripe.conf.template
COPY deploy/docker/web-localstripe.sh /docker-entrypoint.d/30-courtside-localstripe.sh
USER 0
RUN mkdir -p /etc/nginx/snippets/optional && chown 101:0 /etc/nginx/snippets/optional
USER 101
COPY --from=build /web/dist /usr/share/nginx/html
# The template's placeholders; only these are substituted, nginx's own $variables stay.
ENV NGINX_ENVSUBST_FILTER="^(NGINX_LISTEN|GATEWAY_UPSTREAM|WEB_ROOT|UPLOAD_DIR|NGINX_SNIPPET_DIR|NGINX_REAL_IP_FROM|STRIPE_JS_URL)$" \
    NGINX_LISTEN=8080 \
    GATEWAY_UPSTREAM=gateway:8000 \
    WEB_ROOT=/usr/share/nginx/html \
    UPLOAD_DIR=/srv/uploads \
    NGINX_SNIPPET_DIR=/etc/nginx/snippets \
    NGINX_REAL_IP_FROM=127.0.0.1 \
    STRIPE_JS_URL=https://js.stripe.com/v3/ \
    LOCALSTRIPE_UPSTREAM=""
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
