# Test stand-in for caddy:2: Debian's caddy with the official image's data and config folders, and wget for the
# compose healthcheck as busybox has in the official image.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends caddy wget >/dev/null \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /data /config /etc/caddy
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
