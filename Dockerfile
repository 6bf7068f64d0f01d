# syntax=docker/dockerfile:1
# The site as a container image: built in one stage, run in a slim one as an unprivileged user.
#
#   docker build -t band-site .
#   docker run -d --name band-site -p 3000:3000 -v band-data:/data \
#     -e SITE_URL=https://groupe.example -e TRUST_PROXY=172.17.0.1 band-site
#
# Data (embedded database, uploads, automatic backups) lives in the /data volume; with
# DATABASE_URL and S3_* set, the container keeps nothing and can run as many times as needed.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, the production build, then only what runs -----------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV CI=1 IGNORE_DOTENV=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Production dependencies only: npm's prune, then the development tools it keeps as optional peers.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && node scripts/prune-image-deps.mjs

# --- runtime ----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    IGNORE_DOTENV=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/build ./build
COPY --from=build --chown=root:root /app/server ./server
COPY --from=build --chown=root:root /app/drizzle ./drizzle
# The command-line tools (npm run backup / restore / move-to-postgres) run from the sources.
COPY --from=build --chown=root:root /app/scripts ./scripts
COPY --from=build --chown=root:root /app/app ./app
# Their French messages, and the server's plain-text answers, come from the one locale file.
COPY --from=build --chown=root:root /app/public/locales ./public/locales
RUN mkdir -p /data && chown node:node /data
# The code belongs to root and cannot be changed by the process; only /data is writable.
USER node
VOLUME ["/data"]
EXPOSE 3000
STOPSIGNAL SIGTERM
# Liveness (/healthz): is this process up and answering? Readiness (/readyz) is for the load
# balancer, which stops sending traffic while an instance drains; it is not a reason to call the
# container unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/index.ts"]
