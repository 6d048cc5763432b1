# The BFF with the built web app. Build context: the repository root.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund && npx turbo run build --filter=@funnel/bff --filter=@funnel/web

FROM node:20-bookworm-slim
ENV NODE_ENV=production WEB_DIST_DIR=/app/apps/web/dist
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/contracts/package.json ./packages/contracts/
COPY --from=build /app/packages/contracts/dist ./packages/contracts/dist
COPY --from=build /app/packages/server-runtime/package.json ./packages/server-runtime/
COPY --from=build /app/packages/server-runtime/dist ./packages/server-runtime/dist
COPY --from=build /app/packages/lead-store/package.json ./packages/lead-store/
COPY --from=build /app/packages/lead-store/dist ./packages/lead-store/dist
COPY --from=build /app/apps/bff/package.json ./apps/bff/
COPY --from=build /app/apps/bff/dist ./apps/bff/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
RUN npm ci --omit=dev --no-audit --no-fund --workspace=@funnel/bff --include-workspace-root=false
USER node
EXPOSE 3000
CMD ["node", "apps/bff/dist/server.js"]
