# baton — a terminal coding agent with live sub-agent delegation.

GO ?= go

.PHONY: run test bench lint build install perf

# On a cold build cache the first compile takes a minute with nothing on
# screen; say so first. ARGS are passed to baton (make run ARGS=--demo).
run:
	@case "$$($(GO) list -e -deps -f '{{if and .Stale (ne .Name "main")}}stale{{end}}' ./cmd/baton 2>&1)" in \
	*stale*|*rror*) echo "baton: building first (a cold Go build cache compiles every dependency once; about a minute)..." ;; \
	esac
	@$(GO) run ./cmd/baton $(ARGS)

# The race detector sleeps a second as each process exits (GORACE's
# atexit_sleep_ms), to catch a race with a goroutine still running then;
# goleak already refuses such goroutines where the code starts any, and
# the test binaries and the hundreds of processes they start (sandbox
# stages, baton itself) would each wait the second out. The engine's and
# the child's (engine/child) tests then run again with children in
# processes of their own. That second pass, with every child on the
# process runner, runs beside the race pass: both spend much of their
# time waiting on children, timers and processes, so four test binaries
# at once (-p 4) and the two passes together finish sooner on two cores
# without dropping a test.
test:
	$(GO) vet ./...
	@log=$$(mktemp); \
	$(GO) test ./engine ./engine/child -runner=process >"$$log" 2>&1 & proc=$$!; \
	echo 'go test -race -p 4 ./... (beside: go test ./engine ./engine/child -runner=process)'; \
	GORACE="$${GORACE:-atexit_sleep_ms=0}" $(GO) test -race -p 4 ./...; race=$$?; \
	wait $$proc; procrc=$$?; \
	echo 'go test ./engine ./engine/child -runner=process'; cat "$$log"; rm -f "$$log"; \
	[ $$race -eq 0 ] && [ $$procrc -eq 0 ]

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# On Linux the text is linked 64 KiB past the usual 4 MiB (LINK), so no
# segment of the binary lines up with a 2 MiB page: when the page cache
# holds the file in 2 MiB pieces (a file written in large writes, or read
# ahead), the kernel can then map only what baton touches, not 2 MiB at a
# time (--version peak RSS 18.6 -> 11.4 MiB for a file written in one
# write; no change otherwise). cmd/perf builds with the same flag.
LINK := $(if $(filter linux,$(shell $(GO) env GOOS)),-ldflags=-T=0x411000)

# A static binary: baton needs no C, and without cgo's dynamic loader and
# libc it starts with about 7 MiB less memory. baton-kube, beside it, is
# what runner = "kubernetes" starts: client-go lives there, not in baton.
build:
	CGO_ENABLED=0 $(GO) build $(LINK) -o bin/baton ./cmd/baton
	CGO_ENABLED=0 $(GO) build $(LINK) -o bin/baton-kube ./cmd/baton-kube

# Installs the baton command the README uses: into PREFIX/bin when PREFIX
# is given (make install PREFIX=~/.local), else where go install puts
# commands ($(go env GOBIN), or $(go env GOPATH)/bin). Says where it went,
# and whether that folder is on PATH.
install:
	@if [ -n "$(PREFIX)" ]; then \
		dir="$(DESTDIR)$(PREFIX)/bin"; mkdir -p "$$dir" && \
		CGO_ENABLED=0 $(GO) build $(LINK) -o "$$dir/baton" ./cmd/baton || exit 1; \
		CGO_ENABLED=0 $(GO) build $(LINK) -o "$$dir/baton-kube" ./cmd/baton-kube || exit 1; \
	else \
		CGO_ENABLED=0 $(GO) install $(LINK) ./cmd/baton ./cmd/baton-kube || exit 1; \
		dir="$$($(GO) env GOBIN)"; [ -n "$$dir" ] || dir="$$($(GO) env GOPATH)/bin"; \
	fi; \
	echo "installed $$dir/baton and $$dir/baton-kube"; \
	case ":$$PATH:" in *":$$dir:"*) ;; *) echo "note: $$dir is not on your PATH; add it (export PATH=\"$$dir:\$$PATH\") to run baton by name";; esac

# Whole-process figures (wall, CPU, peak RSS, time to first byte and each
# case's own) against a scripted endpoint on loopback, in a person's home,
# with the targets of the performance issues; RUNS=3 for a quicker look.
perf:
	$(GO) run ./cmd/perf -runs $(or $(RUNS),5)
