# baton — a terminal coding agent with live sub-agent delegation.

GO ?= go

.PHONY: run test bench lint build perf

run:
	$(GO) run ./cmd/baton

test:
	$(GO) vet ./...
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# A static binary: baton needs no C, and without cgo's dynamic loader and
# libc it starts with about 7 MiB less memory.
build:
	CGO_ENABLED=0 $(GO) build -o bin/baton ./cmd/baton

# Whole-process figures (wall, CPU, peak RSS, time to first byte) against a
# scripted endpoint on loopback; RUNS=3 for a quicker look.
perf:
	$(GO) run ./cmd/perf -runs $(or $(RUNS),7)
