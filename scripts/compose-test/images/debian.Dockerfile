# Test stand-in (npm run test:compose only): the Debian root file system made by debootstrap and imported, plus
# the machine's CA bundle, so TLS to the npm registry works as it does on the machine.
ARG ROOTFS_IMAGE
FROM ${ROOTFS_IMAGE}
COPY ca-bundle.crt /usr/local/share/ca-bundle.crt
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-bundle.crt \
    SSL_CERT_FILE=/usr/local/share/ca-bundle.crt \
    DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8
