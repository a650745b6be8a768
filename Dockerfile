# SimCode: the compiled server and web app, run as a non-root user with an init that forwards signals.
# Build: docker build -t simcode .   Run: see compose.yaml and docs/operations.md.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY . .
# Dev dependencies build the web app and the server; they are pruned before the copy below.
RUN npm ci --no-audit --no-fund \
  && npm run build \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# tini is PID 1: it forwards SIGTERM to node and reaps children (the PGlite creation runs in one).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data && chown node:node /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
USER node
VOLUME /data
EXPOSE 3000
# Liveness only (the process answers); load balancers route on /readyz (see deploy/Caddyfile).
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-old-space-size=192", "apps/server/dist/main.js"]
