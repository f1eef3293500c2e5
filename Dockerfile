# syntax=docker/dockerfile:1
# Node 24 LTS (maintenance LTS until April 2028): the newest LTS line that every dependency is
# released and tested on (Prisma 7, sharp, bcrypt, resvg and PGlite publish Node 24 builds and CI
# runs); package.json's floor is 22.12. The native modules are N-API, so no compiler is needed.
# Build stage: install everything, generate the Prisma client, compile, then drop dev dependencies.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY viewer ./viewer
RUN npm run build && npm prune --omit=dev --ignore-scripts

# Runtime stage: production dependencies, compiled code and the migrations, as a non-root user.
# --build-arg MOCKUPS=1 adds Debian's chromium and a font for GET /projects/:id/mockup (run with
# MOCKUP_ENABLED=true; CHROMIUM_PATH defaults to /usr/bin/chromium); the default image has none.
FROM node:24-bookworm-slim
ARG MOCKUPS=0
RUN if [ "$MOCKUPS" = "1" ]; then \
      apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core \
      && rm -rf /var/lib/apt/lists/*; \
    fi
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data \
    UPLOAD_DIR=/app/uploads
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
RUN mkdir -p /app/data /app/uploads && chown node:node /app/data /app/uploads
USER node
EXPOSE 3000
VOLUME ["/app/data", "/app/uploads"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Migrate, then serve. node runs directly (not through npm) so SIGTERM reaches close-with-grace.
CMD ["sh", "-c", "node dist/cli/migrate.js && exec node dist/server.js"]
