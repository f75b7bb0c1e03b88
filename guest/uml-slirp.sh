#!/bin/sh
# The network of the UML demo guest: linux.uml runs this as its slirp
# transport (eth0=slirp,,THIS) with PARALLAX_SLIRP_PORT in the environment
# (guest/boot.sh). slirp shows the host to the guest as 10.0.2.2, as qemu's
# user networking does (without it, a host whose name resolves to 127.0.0.1
# sends from an address the guest drops as a martian), and forwards the
# port to pmcd in the guest, on every address of this host: slirp has no
# option to bind one, so the guest's access list allows stores from
# 10.0.2.2 only.
exec /usr/bin/slirp "host addr 10.0.2.2" \
    "redir tcp ${PARALLAX_SLIRP_PORT:?} 10.0.2.15:44321"
