# The Node client (clients/node), included by the Makefile: `make node`
# installs its dependencies from the committed lockfile (npm ci) and
# compiles it with tsc; `make node-gen` regenerates its protobuf types from
# proto/sbx.proto (npm pack copies the .proto into the package); `make
# node-check` (run by `make check`) fails on generated code that drifted
# from the .proto, type-checks the VS Code example against @types/vscode
# and runs the tests that need no daemon (t-node-client runs the others).
NODE_DIR := clients/node
# npm: Debian's, or the one that comes with NodeSource's nodejs.
NPM ?= npm
NODE_STAMP := $(NODE_DIR)/node_modules/.package-lock.json
NODE_BIN := node_modules/.bin

.PHONY: node node-gen node-check

$(NODE_STAMP): $(NODE_DIR)/package-lock.json $(NODE_DIR)/package.json
	cd $(NODE_DIR) && $(NPM) ci --no-audit --no-fund --loglevel=error

node: $(NODE_STAMP)
	cd $(NODE_DIR) && $(NODE_BIN)/tsc -p .
	cd $(NODE_DIR) && $(NODE_BIN)/tsc -p examples/vscode-terminal

node-gen: $(NODE_STAMP)
	cd $(NODE_DIR) && $(NODE_BIN)/buf generate

node-check: node
	@t=$$(mktemp -d) && trap 'rm -rf "$$t"' EXIT && \
	(cd $(NODE_DIR) && $(NODE_BIN)/buf generate -o "$$t") && \
	diff -u $(NODE_DIR)/src/gen/sbx_pb.ts "$$t/src/gen/sbx_pb.ts" || { echo \
		"$(NODE_DIR)/src/gen is not what proto/sbx.proto generates: make node-gen" >&2; exit 1; }
	cd $(NODE_DIR) && node --test dist/test/wire.test.js dist/test/socket.test.js dist/test/hello.test.js examples/vscode-terminal/dist/test/*.test.js
