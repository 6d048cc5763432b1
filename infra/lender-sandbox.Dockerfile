# The lender-network sandbox, for non-production stacks. Build context: the repository root.
#   docker build -f infra/lender-sandbox.Dockerfile -t funnel-lender-sandbox .
# NODE_IMAGE is the official image by default; `npm run test:compose` substitutes a local one built the same way.
ARG NODE_IMAGE=node:24-bookworm-slim

# The same two stages open all three app Dockerfiles, word for word: `turbo prune` keeps the four apps' workspaces
# and a lockfile cut to them (json/: package manifests, for a dependency layer that survives source edits; full/:
# the sources), then one `npm ci` and one build of them all. A builder that has built one app's image has the
# stages of the other two in its cache (docker-compose builds the three; `npm run test:compose` builds one first).
FROM ${NODE_IMAGE} AS prune
ARG TURBO_VERSION=2.11.9
ENV TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
WORKDIR /src
COPY . .
RUN npx --yes turbo@${TURBO_VERSION} prune @funnel/bff @funnel/web @funnel/worker @funnel/lender-sandbox --docker --out-dir /out

FROM ${NODE_IMAGE} AS build
ENV TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
WORKDIR /app
COPY --from=prune /out/json/ ./
RUN npm ci --no-audit --no-fund
COPY --from=prune /out/full/ ./
COPY tsconfig.base.json ./
RUN npx turbo run build --filter=@funnel/bff --filter=@funnel/web --filter=@funnel/worker --filter=@funnel/lender-sandbox --output-logs=errors-only \
 && mkdir /dist && find apps packages -mindepth 2 -maxdepth 2 -type d -name dist -exec cp -r --parents {} /dist/ \;

# Production dependencies only.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=prune /out/json/ ./
RUN npm ci --omit=dev --no-audit --no-fund --workspace=@funnel/lender-sandbox --include-workspace-root=false

FROM ${NODE_IMAGE}
# Which build this is: /healthz, the funnel_build_info metric and the image's labels say it.
ARG APP_VERSION=dev
LABEL org.opencontainers.image.title="funnel-lender-sandbox" org.opencontainers.image.version="${APP_VERSION}"
ENV NODE_ENV=production SANDBOX_HOST=0.0.0.0 SANDBOX_PORT=4010
WORKDIR /app
COPY --from=deps /app ./
# Its own compiled code and the packages': the build stage compiled all four apps.
COPY --from=build /dist/apps/lender-sandbox/ ./apps/lender-sandbox/
COPY --from=build /dist/packages/ ./packages/
# Read-only code owned by root; the process runs as the image's unprivileged `node` user.
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=10s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.SANDBOX_PORT+'/readyz',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/lender-sandbox/dist/server.js"]
