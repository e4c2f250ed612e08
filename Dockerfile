# syntax=docker/dockerfile:1
# One image for the API, the worker and the CLI (migrations, keys, jobs): the Kubernetes
# manifests choose the process with `command`. Build (docs/operations.md, "The image"):
#   docker build --build-arg VERSION=0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" \
#     -t ghcr.io/shiplog/shiplog:0.1.0 .

FROM oven/bun:1.4.5-slim AS deps
WORKDIR /app
# Only what the install reads, so editing source does not invalidate this layer. apps/bench and
# apps/faults are left out on purpose: bun skips lockfile workspaces that are absent from disk,
# which keeps their load generators out of the image. packages/client is installed for the `cli`
# stage below; the runtime stage ships none of its source.
COPY package.json bun.lock bunfig.toml ./
COPY patches ./patches
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/cli/package.json apps/cli/
COPY packages/client/package.json packages/client/
COPY packages/config/package.json packages/config/
COPY packages/db/package.json packages/db/
COPY packages/integrations/package.json packages/integrations/
COPY packages/ops-http/package.json packages/ops-http/
COPY packages/schema/package.json packages/schema/
# --production leaves out devDependencies (embedded-postgres among them); the lockfile's
# patchedDependencies make bun apply patches/postgres@3.4.9.patch here.
RUN bun install --frozen-lockfile --production

# The CLI the API serves at /cli/shiplog.mjs, bundled for Node from packages/client: built here,
# not committed, so the image serves the CLI of the source it was built from.
FROM deps AS cli
COPY packages/schema/src ./packages/schema/src
COPY packages/client/src ./packages/client/src
COPY scripts/build-cli.ts ./scripts/
RUN bun scripts/build-cli.ts

FROM oven/bun:1.4.5-slim AS runtime
WORKDIR /app
# No transpiler cache: the root filesystem is read-only in Kubernetes and /tmp is the only
# writable path.
ENV NODE_ENV=production \
    BUN_RUNTIME_TRANSPILER_CACHE_PATH=0
# A user of its own, uid and gid 10001: above the range hosts give their people (1000 is the
# first user of most Linux hosts, and the base image's `bun`), so a container escape lands on
# no one's files. The Kubernetes manifests and the chart run pods as the same ids.
RUN groupadd --system --gid 10001 shiplog \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin shiplog
# The isolated linker puts links in every workspace's node_modules, so the whole tree is copied.
COPY --from=deps /app ./
COPY tsconfig.base.json ./
COPY packages/config ./packages/config
COPY packages/schema ./packages/schema
COPY packages/db ./packages/db
COPY packages/integrations ./packages/integrations
COPY packages/ops-http ./packages/ops-http
COPY apps/api ./apps/api
COPY --from=cli /app/apps/api/dist ./apps/api/dist
COPY apps/worker ./apps/worker
COPY apps/cli ./apps/cli
# Files stay owned by root, so the process cannot modify its own code. Numeric, so the kubelet can
# verify runAsNonRoot: the `shiplog` user made above.
USER 10001:10001
# What the image is, for registries and scanners (OCI annotations; `docker inspect` shows them),
# from the build's arguments. Declared last, so changing them rebuilds no layer.
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/shiplog/shiplog
# SPDX for "not stated": the repository has no license file yet; set it when it has one.
ARG LICENSES=NOASSERTION
LABEL org.opencontainers.image.title="shiplog" \
      org.opencontainers.image.description="Shiplog records deployments: API, worker and CLI" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="${LICENSES}"
# The API's public port and its metrics port (METRICS_PORT), and the worker's probes and metrics.
EXPOSE 3000 9091 9090
CMD ["bun", "apps/api/src/main.ts"]
