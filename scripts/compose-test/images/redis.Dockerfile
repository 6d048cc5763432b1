# Test stand-in for redis:7-alpine: Debian's redis-server, data in /data as in the official image.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /data
WORKDIR /data
EXPOSE 6379
CMD ["redis-server"]
