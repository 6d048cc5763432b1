# The lead-submission worker. Build context: the repository root.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund && npx turbo run build --filter=@funnel/worker

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/contracts/package.json ./packages/contracts/
COPY --from=build /app/packages/contracts/dist ./packages/contracts/dist
COPY --from=build /app/packages/server-runtime/package.json ./packages/server-runtime/
COPY --from=build /app/packages/server-runtime/dist ./packages/server-runtime/dist
COPY --from=build /app/packages/lead-store/package.json ./packages/lead-store/
COPY --from=build /app/packages/lead-store/dist ./packages/lead-store/dist
COPY --from=build /app/apps/worker/package.json ./apps/worker/
COPY --from=build /app/apps/worker/dist ./apps/worker/dist
RUN npm ci --omit=dev --no-audit --no-fund --workspace=@funnel/worker --include-workspace-root=false
USER node
CMD ["node", "apps/worker/dist/main.js"]
