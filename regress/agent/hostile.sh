# The test agent of the live suites: hostile-server/ packed with npm
# here (the filler fills it offline), as an agent profile "hostile".
# Sets TGZ, PORT and tgzdir; profile [extra lines] prints the profile.
# Its ready wait is WAIT_FLOOR's 30 s (HOSTILE_READY_WAIT): node with its
# ballast took over 8 s to answer on a loaded machine, failing a create
# that a suite needed to stand; a suite whose server is never ready may
# ask for less.
hdir=$(cd "$(dirname "$0")/../agent" && pwd)
PORT=27601
tgzdir=$(mktemp -d /tmp/spaced-hostile.XXXXXX)
(cd "$tgzdir" && npm pack --silent "$hdir/hostile-server" >/dev/null 2>&1)
TGZ=$tgzdir/spaced-hostile-server-1.0.0.tgz
profile() {
	cat <<EOC
agent hostile packed spaced-hostile-server 1.0.0 $TGZ
agent hostile binary hostile-server
agent hostile serve hostile-server %p
agent hostile port $PORT
agent hostile password env HOSTILE_PASSWORD
agent hostile auth basic x
agent hostile ready GET /health 200 healthy
agent hostile ready wait ${HOSTILE_READY_WAIT:-30}
agent hostile model none
agent hostile env NODE_OPTIONS=--max-old-space-size=64
${1:-}
default agent hostile
EOC
}
