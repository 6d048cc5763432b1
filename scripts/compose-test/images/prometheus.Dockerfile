# Test stand-in for prom/prometheus: Debian's prometheus (and promtool), started the same way (entrypoint
# `prometheus`, arguments from compose), with wget for the compose healthcheck as busybox has in the official image.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends prometheus wget >/dev/null \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /prometheus
WORKDIR /prometheus
ENTRYPOINT ["/usr/bin/prometheus"]
