# One image per Rust process of the workspace, chosen by a build argument:
#   docker build -f deploy/docker/service.Dockerfile --build-arg BIN=booking-svc -t courtside/booking-svc:0.1.0 .
# BIN: identity-svc | coaching-svc | booking-svc | gym-svc | gateway. The build context is the
# repository root; service.Dockerfile.dockerignore beside this file keeps target/ and web/ out.
# CARGO_PROFILE: release (the default: what a deployment runs) or dev, which compiles in about
# a third of the time; CI's compose stage builds dev, since it checks the mesh, not its speed.
ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

# The builder does not depend on BIN: it compiles every process of the workspace in one cargo
# build (features unified once, each crate compiled once), and the engine's layer cache serves that
# one stage to all five images.
FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS builder
ARG CARGO_PROFILE=release
WORKDIR /src
COPY . .
# The .proto files compile in Rust (protox): no protoc. sqlx checks no query against a database.
# Cargo writes the dev profile's binaries to target/debug, any other profile's to target/<name>.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --profile "${CARGO_PROFILE}" --locked --workspace --bins \
 && out="target/$(if [ "${CARGO_PROFILE}" = dev ]; then echo debug; else echo "${CARGO_PROFILE}"; fi)" \
 && for bin in identity-svc coaching-svc booking-svc gym-svc gateway; do \
      install -D -m 0755 "${out}/${bin}" "/out/${bin}"; \
    done

FROM debian:${DEBIAN_RELEASE}-slim
ARG BIN
RUN test -n "${BIN}" || { echo "build with --build-arg BIN=<identity-svc|coaching-svc|booking-svc|gym-svc|gateway>" >&2; exit 1; }
# curl for the health checks (the same /readyz up.sh and Kubernetes use); openssl for the dev keygen.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl openssl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 courtside \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin courtside \
 && install -d -o 10001 -g 10001 -m 0755 /srv/uploads /keys /keys/public \
 && install -d -o 10001 -g 10001 -m 0700 /keys/private
COPY --from=builder /out/${BIN} /usr/local/bin/${BIN}
RUN ln -s "/usr/local/bin/${BIN}" /usr/local/bin/courtside-process
USER 10001:10001
ENV RUST_LOG=info
ENTRYPOINT ["/usr/local/bin/courtside-process"]
