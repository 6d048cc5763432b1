# The lender-network sandbox, for non-production stacks. Build context: the repository root.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund && npx turbo run build --filter=@funnel/lender-sandbox

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/contracts/package.json ./packages/contracts/
COPY --from=build /app/packages/contracts/dist ./packages/contracts/dist
COPY --from=build /app/packages/server-runtime/package.json ./packages/server-runtime/
COPY --from=build /app/packages/server-runtime/dist ./packages/server-runtime/dist
COPY --from=build /app/apps/lender-sandbox/package.json ./apps/lender-sandbox/
COPY --from=build /app/apps/lender-sandbox/dist ./apps/lender-sandbox/dist
RUN npm ci --omit=dev --no-audit --no-fund --workspace=@funnel/lender-sandbox --include-workspace-root=false
USER node
EXPOSE 4010
CMD ["node", "apps/lender-sandbox/dist/server.js"]
