# localstripe for docker-compose.yml (development and the compose test only, issue 33; Kubernetes
# points at Stripe): the version pinned in deploy/localstripe/requirements.txt, run by
# deploy/localstripe/run.py, as ./deploy/up.sh runs it; compose keeps its store in a volume at
# /var/lib/localstripe (`--store /var/lib/localstripe/store.pickle`) and names the webhook.
#   docker build -f deploy/docker/localstripe.Dockerfile -t courtside/localstripe:1.15.10 .
# The build context is the repository root; localstripe.Dockerfile.dockerignore keeps all but
# deploy/localstripe/ out. No Python image is used: Debian's Python 3.11 on debian:bookworm-slim,
# the base the other images share (and that the local stand-ins provide where no registry answers).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/localstripe
COPY deploy/localstripe/requirements.txt ./
# The system's certificates (Debian's pip uses them too), so a TLS-inspecting proxy whose CA the
# base image trusts is trusted here as well.
RUN python3 -m venv /opt/localstripe/venv \
    && mkdir -p /var/lib/localstripe && chown 10001:10001 /var/lib/localstripe \
    && PIP_CERT=/etc/ssl/certs/ca-certificates.crt /opt/localstripe/venv/bin/pip install \
       --no-cache-dir --disable-pip-version-check -r requirements.txt
COPY deploy/localstripe/run.py ./
USER 10001:10001
EXPOSE 8420
HEALTHCHECK --interval=5s --timeout=3s CMD ["/opt/localstripe/venv/bin/python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8420/js.stripe.com/v3/', timeout=2)"]
ENTRYPOINT ["/opt/localstripe/venv/bin/python", "/opt/localstripe/run.py", "--host", "0.0.0.0", "--port", "8420"]
