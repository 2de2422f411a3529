# The shop as one image: the web server (the default command), the worker and the database
# tools (compose.yaml runs all three; docs/self-hosting.md). tests/deploy/self-host.test.ts runs
# this file's build commands, assembles its runtime stage from the COPY lines and runs the CMD
# and HEALTHCHECK without a container, so what it checks is what this file says.

# The Node major of .nvmrc and package.json's engines; pin a digest (node:24-bookworm-slim@sha256:…)
# for builds that never change under you.
FROM node:24-bookworm-slim AS base
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NPM_CONFIG_UPDATE_NOTIFIER=false

# Every dependency, dev ones included: the build needs Prisma's generator, TypeScript, Tailwind
# and esbuild.
FROM base AS deps
COPY package.json package-lock.json ./
# The npm workspaces' manifests (the sandbox package and the benchmarks): npm wants each one the
# lock file names. Their code is not needed here; the runtime image holds none of it.
COPY packages/pay-sandbox/package.json packages/pay-sandbox/
COPY bench/package.json bench/
# `npm install`, not `npm ci`: the lock file lacks other platforms' optional packages
# (@next/swc-darwin-arm64 and the like), so `npm ci` refuses it on every platform. With the lock
# present, `npm install` keeps each locked version and only looks up what the lock lacks.
# --ignore-scripts: the build generates the Prisma client itself, with no engine download.
RUN npm install --no-audit --no-fund --ignore-scripts

FROM base AS build
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# The Prisma client, `next build`, and the worker bundled into dist/ (scripts/build-tools.mjs).
RUN npm run build
# Dev dependencies out: what stays runs the server, the worker and the database tools
# (scripts/prune.mjs: `npm prune --omit=dev --omit=optional`, which also drops the build tools
# dependencies list as optional, keeping sharp's binary for this platform). About 350 MB stay.
RUN node scripts/prune.mjs

FROM base AS runtime
ENV NODE_ENV=production
# Docker sets HOSTNAME to the container's id and scripts/serve.mjs listens on $HOSTNAME: every
# interface instead, so the published port and the health check reach the server.
ENV HOSTNAME=0.0.0.0 PORT=3000
COPY --from=build /app/package.json /app/next.config.mjs ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/dist ./dist
# GET /api/health compares the database with these, and `npm run db:migrate` applies them.
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY --from=build /app/public ./public
# The one tree the server writes to (Next's cache); everything else stays read-only to it.
COPY --from=build --chown=node:node /app/.next ./.next
USER node
EXPOSE 3000
# No curl in slim images: Node's fetch. 503 (database unreachable, migrations pending) is unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start`'s command (package.json; the ENV above sets its variable), without npm in between:
# npm does not pass `docker stop`'s SIGTERM on to the server, which would lose its graceful stop.
CMD ["node", "scripts/serve.mjs"]
