#!/usr/bin/env bash
# A certificate authority made for one benchmark run and thrown away after it: writes into the folder given
# (created if missing) ca.pem (what NODE_EXTRA_CA_CERTS points at), and server.pem + server-key.pem, a
# certificate for 127.0.0.1 and localhost signed by it (the remote relay's, dev/relay/). ECDSA P-256 keys, a
# day's validity; nothing of it is kept in the repository. Needs openssl (bench.sh installs it from Debian).
set -euo pipefail
dir="$1"
mkdir -p "$dir"
cd "$dir"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj "/CN=Chat Completions bench CA" -keyout ca-key.pem -out ca.pem 2> /dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-subj "/CN=127.0.0.1" -keyout server-key.pem -out server.csr 2> /dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 1 \
	-extfile server.ext -out server.pem 2> /dev/null
rm -f ca-key.pem server.csr server.ext ca.srl
