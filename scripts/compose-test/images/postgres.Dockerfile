# Test stand-in for postgres:15-alpine: Debian's postgresql-15 with an entrypoint that, like the official one,
# creates the cluster from POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB on first start.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
EXPOSE 5432
CMD ["postgres"]
