#!/usr/bin/env bash
# Proves that `npm run e2e` turns red on the three defects the issue names, each in a
# scratch copy of the repo (the real files are never touched):
#   node-file  a node path in package.json's n8n section that does not exist
#   icon       an icon file missing from dist/
#   template   a template whose run errors (an Order "Get" of an order that does not exist)
# Usage: bash e2e/prove-red.sh [node-file|icon|template ...]   (after npm run build)
# Exit 0 when every case made the e2e fail for the expected reason.
set -uo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
CASES=("$@")
[ ${#CASES[@]} -eq 0 ] && CASES=(node-file icon template)
status=0

scratch() {
	local dir
	dir="$(mktemp -d /tmp/ap-e2e-red-XXXXXX)"
	# What npm pack and the e2e read: package files, dist, emulator, templates, the e2e itself.
	cp -r "$REPO/package.json" "$REPO/README.md" "$REPO/LICENSE" "$REPO/dist" "$REPO/emulator" "$REPO/examples" "$REPO/e2e" "$dir/"
	[ -f "$REPO/.npmrc" ] && cp "$REPO/.npmrc" "$dir/"
	mkdir -p "$dir/scripts" && cp "$REPO/scripts/demo.js" "$dir/scripts/" 2>/dev/null
	echo "$dir"
}

for c in "${CASES[@]}"; do
	dir="$(scratch)"
	case "$c" in
	node-file)
		node -e "const f='$dir/package.json';const p=require(f);p.n8n.nodes=p.n8n.nodes.map(n=>n.replace('Order/AccessPointOrder.node.js','Order/AccessPointOrdr.node.js'));require('fs').writeFileSync(f,JSON.stringify(p,null,2))"
		expect='node types missing from n8n'
		;;
	icon)
		rm "$dir/dist/icons/accessPoint.dark.svg"
		expect='accessPoint.dark.svg -> HTTP 404'
		;;
	template)
		cat >"$dir/examples/zz-broken-template.json" <<'EOF'
{
  "name": "Broken on purpose: get an order that does not exist",
  "nodes": [
    { "parameters": {}, "id": "7b7e0000-0000-4000-8000-000000000001", "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0] },
    { "parameters": { "resource": "order", "operation": "get", "orderId": "987654321" }, "id": "7b7e0000-0000-4000-8000-000000000002", "name": "Get a missing order", "type": "n8n-nodes-access-point.accessPointOrder", "typeVersion": 1, "position": [240, 0],
      "credentials": { "accessPointApi": { "id": "", "name": "AccessPoint account" } } }
  ],
  "connections": { "Start": { "main": [[{ "node": "Get a missing order", "type": "main", "index": 0 }]] } },
  "active": false,
  "settings": { "executionOrder": "v1" }
}
EOF
		expect='zz-broken-template.json'
		;;
	*)
		echo "unknown case $c"
		status=1
		continue
		;;
	esac
	echo "== case $c (scratch copy $dir)"
	out="$(cd "$dir" && E2E_ARTIFACTS="$dir/.artifacts/e2e" node e2e/run.js --skip-browser --skip-jest 2>&1)"
	rc=$?
	echo "$out" | grep -E '^   (FAIL|- )|^e2e:' | head -20
	if [ $rc -ne 0 ] && echo "$out" | grep -q -- "$expect"; then
		echo "   => red as expected (exit $rc, found \"$expect\")"
	else
		echo "   => NOT red for the expected reason (exit $rc, \"$expect\" not found)"
		status=1
	fi
	rm -rf "$dir"
done
exit $status
