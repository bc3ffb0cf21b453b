# syntax=docker/dockerfile:1.7
#
# Every image of the platform (docs/adr/0086-images.md). `npm run images` builds them all with
# whichever engine the machine has (docker, podman or buildah) and starts each one; by hand:
#
#   docker build --build-arg SERVICE=identity -t challenge-platform/identity .
#   docker build --build-arg SERVICE=gateway  -t challenge-platform/gateway  .   # serves the SPA
#   docker build --target migrations          -t challenge-platform/migrations .
#
# SERVICE is one of: gateway, identity, challenge, wallet, media, moderation, notification. A
# service's image holds its production bundle (docs/adr/0078-production-bundles.md) and, of its
# production dependencies, only the files that bundle loads; ffmpeg only in media's. The
# migrations image runs `node scripts/migrate.mjs apply` for the Helm hook and the kustomize Job.
#
# Build secret (optional): `npm-ca`, a PEM bundle that npm must trust to reach the registry
# (where a proxy re-signs TLS). Mounted for the npm steps only; never in an image.

# Node 24, the platform's one Node (docs/adr/0075-node-24.md). A build argument, so that a base
# made offline with the same content (`npm run images` on a machine without a registry) can stand
# in for the official image.
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
# deps: every workspace's dependencies, dev ones included: esbuild bundles, vite builds the SPA,
# the Prisma CLI generates the clients, @vercel/nft traces what each bundle loads.
FROM base AS deps
COPY --from=manifests /app /app
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npm-ca \
    if [ -s /run/secrets/npm-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm-ca; fi \
 && npm ci --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# build: the Prisma clients, every bundle, the supergraph and the SPA. One stage for all images
# (it does not depend on SERVICE), so an engine with a layer cache builds it once.
FROM deps AS build
COPY . .
# The Prisma CLI insists on a schema-engine binary even for `generate`, which needs none.
RUN PRISMA_SCHEMA_ENGINE_BINARY=/bin/true npm run generate --workspaces --if-present
RUN for workspace in services/identity services/challenge services/wallet services/media \
      services/moderation services/notification gateway web; do \
      npm run build -w "$workspace" || exit 1; \
    done \
 && test -f web/dist/index.html && test -f gateway/dist/supergraph.graphql

# ---------------------------------------------------------------------------------------------
# tree: what one service's image holds: its bundle, the package.json files that make it a
# module, and its production dependencies (installed from the lockfile, then pruned to the files
# the bundle loads: scripts/lib/production-tree.mjs --trace). The gateway also gets web/dist,
# without the SPA's (hidden) source maps: the gateway would serve them, and the sources stay ours.
FROM build AS tree
ARG SERVICE
RUN case "$SERVICE" in \
      gateway|identity|challenge|wallet|media|moderation|notification) ;; \
      *) echo "build with --build-arg SERVICE=<gateway|identity|challenge|wallet|media|moderation|notification> (or --target migrations), got '$SERVICE'" >&2; exit 1 ;; \
    esac
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npm-ca \
    if [ -s /run/secrets/npm-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm-ca; fi \
 && if [ "$SERVICE" = gateway ]; then workspace=gateway; else workspace="services/$SERVICE"; fi \
 && node scripts/lib/production-tree.mjs /out "$workspace" --trace \
 && ln -s "$workspace" /out/current \
 && if [ "$SERVICE" = gateway ]; then \
      mkdir -p /out/web && cp -r web/dist /out/web/dist \
      && find /out/web/dist -name '*.map' -delete; \
    fi

# tini: a signal-forwarding, zombie-reaping PID 1, copied into the images from here.
FROM base AS tini
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

# migrations-tree: scripts/migrate.mjs, every service's prisma/ folder, and the traced files of
# pg, the Prisma driver adapter and the WebAssembly schema engine (no Prisma CLI, no tsx).
FROM build AS migrations-tree
RUN node scripts/lib/production-tree.mjs /out migrations

# ---------------------------------------------------------------------------------------------
# migrations: the image of the migration Job (Helm hook, kustomize Job, compose's `migrate`).
# Each service's database from <SERVICE>_DATABASE_URL.
FROM base AS migrations
COPY --from=tini /usr/bin/tini /usr/bin/tini
COPY --from=migrations-tree /out /app
ENV NODE_ENV=production
USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/migrate.mjs", "apply"]

# ---------------------------------------------------------------------------------------------
# runtime (the default target): the image of one service, SERVICE.
FROM base AS runtime
ARG SERVICE
# ffmpeg/ffprobe only where they are used: media's video pipeline. Debian's ffmpeg brings what
# every build option might load (LLVM and Mesa for GPU filters, Intel's media SDK plugins, VA and
# VDPAU drivers): of the shared libraries the install adds, only those ffmpeg and ffprobe link
# (their ldd closure) stay; the package records stay, so an image scanner still sees every
# package. apt's downloads go too (the official base's apt configuration drops them by itself, a
# base made offline may not). Then one transcode as the media pipeline makes it (H.264/AAC MP4,
# a PNG frame) proves nothing it needs went.
RUN if [ "$SERVICE" = media ]; then \
      libs() { find /usr/lib/x86_64-linux-gnu \( -type f -o -type l \) -name '*.so*' | LC_ALL=C sort; } \
      && libs > /tmp/libs-before \
      && apt-get update \
      && apt-get install -y --no-install-recommends ffmpeg \
      && ldd /usr/bin/ffmpeg /usr/bin/ffprobe | awk '/=> \// { print $3 }' | xargs readlink -f \
         | LC_ALL=C sort -u > /tmp/libs-linked \
      && libs | LC_ALL=C comm -13 /tmp/libs-before - | while read -r lib; do \
           grep -qxF "$(readlink -f "$lib")" /tmp/libs-linked || rm -f "$lib"; \
         done \
      && find /usr/lib/x86_64-linux-gnu -type d -empty -delete \
      && apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/libs-* \
      && ffmpeg -v error -f lavfi -i testsrc=duration=1:size=320x240:rate=10 -f lavfi -i sine=duration=1 \
           -vf scale=160:120 -pix_fmt yuv420p -c:v libx264 -preset veryfast -c:a aac \
           -movflags +faststart -f mp4 /tmp/check.mp4 \
      && ffprobe -v error -show_streams /tmp/check.mp4 > /dev/null \
      && ffmpeg -v error -i /tmp/check.mp4 -frames:v 1 -f image2 -c:v png /tmp/check.png \
      && rm /tmp/check.mp4 /tmp/check.png; \
    fi
COPY --from=tini /usr/bin/tini /usr/bin/tini
# The files stay owned by root: the runtime user can read them but not rewrite its own code,
# and the root filesystem can be mounted read-only (only /tmp is written: media's work files).
COPY --from=tree /out /app

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
CMD ["node", "--max-semi-space-size=4", "current/dist/index.js"]
