# syntax=docker/dockerfile:1.7
#
# One Dockerfile for every process of the platform. The final image runs the workspace named by
# SERVICE:
#
#   docker build --build-arg SERVICE=identity -t challenge-platform/identity .
#   docker build --build-arg SERVICE=gateway  -t challenge-platform/gateway  .
#
# SERVICE is one of: gateway, identity, challenge, wallet, media, moderation, notification.
# The process runs its production bundle, `node dist/index.js` (docs/adr/0078-production-bundles.md).
# Every image still holds the whole monorepo (docs/adr/0005-deployment.md), so any of them can
# also run the migrations: `node scripts/migrate.mjs apply`.

# Node 24, the platform's one Node (docs/adr/0075-node-24.md); a build argument, so that an
# offline base with the same content can stand in for it.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
# base: shared settings for every stage
FROM ${NODE_IMAGE} AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    # Prisma: no telemetry, no update nagging
    CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1
WORKDIR /app

# ---------------------------------------------------------------------------------------------
# manifests: only the package.json files (and the lock), so that `npm ci` below is re-run only
# when dependencies change, not on every source edit. Collected with find so that a new
# workspace needs no edit here.
FROM base AS manifests
COPY . /src
RUN cd /src \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /app \; \
 && cp package-lock.json /app/

# ---------------------------------------------------------------------------------------------
# deps: every workspace's dependencies, dev ones included: esbuild bundles the sources, and the
# Prisma CLI generates the clients and applies migrations.
FROM base AS deps
COPY --from=manifests /app /app
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# build: generated Prisma clients for every service and the bundle of SERVICE; for the gateway
# also the SPA and the supergraph (composed at build time from the subgraphs' SDL files).
FROM deps AS build
ARG SERVICE
COPY . .
# The Prisma CLI insists on a schema-engine binary even for `generate`, which needs none.
RUN PRISMA_SCHEMA_ENGINE_BINARY=/bin/true npm run generate --workspaces --if-present
RUN if [ "$SERVICE" = "gateway" ]; then \
      npm run build -w web && npm run build -w gateway \
      && test -f web/dist/index.html && test -f gateway/dist/supergraph.graphql; \
    else npm run build -w "services/$SERVICE"; fi

# ---------------------------------------------------------------------------------------------
# runtime: the image that is shipped.
FROM base AS runtime
ARG SERVICE
RUN case "$SERVICE" in \
      gateway|identity|challenge|wallet|media|moderation|notification) ;; \
      *) echo "build with --build-arg SERVICE=<gateway|identity|challenge|wallet|media|moderation|notification>, got '$SERVICE'" >&2; exit 1 ;; \
    esac
# ffmpeg/ffprobe only where they are used: the media pipeline. tini reaps zombies left by
# ffmpeg children and forwards SIGTERM so the graceful stop (SHUTDOWN_TIMEOUT_MS) runs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && if [ "$SERVICE" = "media" ]; then apt-get install -y --no-install-recommends ffmpeg; fi \
 && rm -rf /var/lib/apt/lists/*

# The files stay owned by root: the runtime user can read them but not rewrite its own code,
# and the root filesystem can be mounted read-only.
COPY --from=build /app /app
# One stable path to the entry point, whatever the workspace: /app/current -> the workspace.
RUN if [ "$SERVICE" = "gateway" ]; then ln -s /app/gateway /app/current; \
    else ln -s "/app/services/$SERVICE" /app/current; fi

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    SERVICE=${SERVICE} \
    WEB_DIST_DIR=/app/web/dist \
    APOLLO_TELEMETRY_DISABLED=true
# The node image's unprivileged user, by number so that Kubernetes can verify runAsNonRoot.
USER 1000:1000
# gateway 4700; identity 4701, challenge 4702, wallet 4703, media 4704, moderation 4705,
# notification 4706 (each process listens on PORT).
EXPOSE 4700 4701 4702 4703 4704 4705 4706

# Liveness only: readiness (/readyz) depends on Postgres, Redis and Kafka and is the
# orchestrator's business, not a reason to restart the container.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const d={gateway:4700,identity:4701,challenge:4702,wallet:4703,media:4704,moderation:4705,notification:4706};fetch('http://127.0.0.1:'+(process.env.PORT||d[process.env.SERVICE])+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--"]
# The same arguments as npm start's (BUNDLE_COMMAND in scripts/lib/platform.mjs).
CMD ["node", "--max-semi-space-size=2", "current/dist/index.js"]
