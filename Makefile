# ncfabric: one plain GNU Makefile.
#   make            build build/ncfabric
#   make run        install missing packages, build, open the default design
#   make test       install missing packages, build, run every test
#   make check      -Werror + ASan/UBSan build, tests under sanitizers, layering check
#   make install    PREFIX=/usr/local DESTDIR= (binary, catalog, man pages, bash completion,
#                   examples and README under share/doc; the binary finds the catalog
#                   relative to itself, so any PREFIX works)
#   V=1             show the commands

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CSTD    := -std=c11
OPT     ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wcast-qual -Wformat=2 -Wpointer-arith -Wundef -Wvla
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=
DATADIR := $(PREFIX)/share/ncfabric
DOCDIR  := $(PREFIX)/share/doc/ncfabric
COMPDIR := $(PREFIX)/share/bash-completion/completions

PKGS    := ncursesw yaml-0.1 libcjson
# Evaluated lazily so that a sub-make started after 'deps' sees the new packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
CURSES_LIBS = $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
YAML_LIBS = $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
CJSON_LIBS = $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson)
# build/ncfabric links ncurses and libyaml statically when their archives are installed
# (Debian's libncurses-dev and libyaml-dev ship them), else as shared libraries: every
# start then maps three shared libraries less (libncursesw, libtinfo, libyaml), which is a
# sixth of what `ncfabric report` costs. cJSON (no archive in Debian) and libc stay shared.
# STATIC_LIBS=no links them all shared.
STATIC_LIBS ?= $(shell for a in libncursesw.a libtinfo.a libyaml.a; do \
  [ "$$($(CC) -print-file-name=$$a)" != "$$a" ] || exit 0; done; echo yes)
LIBS_STATIC = $(filter -L%,$(CURSES_LIBS) $(YAML_LIBS)) -Wl,-Bstatic -lncursesw -ltinfo -lyaml -Wl,-Bdynamic
BIN_LIBS = $(if $(filter yes,$(STATIC_LIBS)),$(LIBS_STATIC),$(CURSES_LIBS) $(YAML_LIBS))
CRIT_CFLAGS = $(shell pkg-config --cflags criterion 2>/dev/null)
CRIT_LIBS = $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)

CPPFLAGS_ALL = -I. -D_POSIX_C_SOURCE=200809L -DNCF_DATADIR='"$(DATADIR)"'
CFLAGS_ALL = $(CSTD) $(OPT) $(WARN) $(EXTRA_CFLAGS) -MMD -MP

ifeq ($(V),1)
Q :=
else
Q := @
endif

MODEL_SRC   := $(wildcard model/*.c)
LAYOUTS_SRC := $(wildcard layouts/*.c)
IO_SRC      := $(wildcard io/*.c)
UI_SRC      := $(filter-out ui/main.c,$(wildcard ui/*.c))

MODEL_OBJ   := $(MODEL_SRC:%.c=$(BUILD)/%.o)
LAYOUTS_OBJ := $(LAYOUTS_SRC:%.c=$(BUILD)/%.o)
IO_OBJ      := $(IO_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/builtin_data.o $(BUILD)/gen/builtin_catalog.o
UI_OBJ      := $(UI_SRC:%.c=$(BUILD)/%.o)

LIBMODEL   := $(BUILD)/libmodel.a
LIBLAYOUTS := $(BUILD)/liblayouts.a
LIBIO      := $(BUILD)/libio.a
LIBUI      := $(BUILD)/libui.a
BIN        := $(BUILD)/ncfabric

TEST_MODEL_SRC   := $(wildcard tests/test_model_*.c)
TEST_LAYOUTS_SRC := $(wildcard tests/test_layouts_*.c)
TEST_IO_SRC      := $(wildcard tests/test_io_*.c)
TEST_UI_SRC      := $(wildcard tests/test_ui_*.c)
TEST_BINS := $(BUILD)/tests/model_tests $(BUILD)/tests/layouts_tests \
             $(BUILD)/tests/io_tests $(BUILD)/tests/ui_tests

EMBEDDED := share/catalog.yaml share/examples/reference-case.yaml

.PHONY: all run test test-deps test-run check check-layers bench validate clean install uninstall deps docs fuzz fuzz-build fuzz-seeds valgrind \
        tests-build golden
all: $(BIN)

# --- libraries ------------------------------------------------------------
# model/ and layouts/ get no curses, libyaml or cJSON flags: a forbidden include fails here.
$(BUILD)/model/%.o: model/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c $< -o $@
$(BUILD)/layouts/%.o: layouts/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c $< -o $@
$(BUILD)/io/%.o: io/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(shell pkg-config --cflags yaml-0.1 libcjson 2>/dev/null) $(CFLAGS_ALL) -c $< -o $@
$(BUILD)/ui/%.o: ui/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(PKG_CFLAGS) $(CFLAGS_ALL) -c $< -o $@

# Data compiled into the binary so ncfabric works from anywhere.
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CSTD) -O1 $< -o $@
$(BUILD)/gen/builtin_data.c: $(BUILD)/tools/embed $(EMBEDDED)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMBED   $(EMBEDDED)")
	$(Q)$(BUILD)/tools/embed ncf_builtin_catalog share/catalog.yaml \
	   ncf_builtin_default share/examples/reference-case.yaml > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/builtin_data.o: $(BUILD)/gen/builtin_data.c
	$(Q)$(CC) $(CSTD) $(OPT) -c $< -o $@

# The catalog and the default design as this build parses and lays them out (io/builtin.h):
# a start that reads the shipped catalog, or opens the default design, copies them instead
# of parsing YAML. The generator is the program that links the io objects without
# io/builtin.o (what uses them).
CATGEN_OBJ := $(filter-out $(BUILD)/io/builtin.o,$(IO_SRC:%.c=$(BUILD)/%.o)) $(BUILD)/gen/builtin_data.o
$(BUILD)/tools/catalog-gen: tools/catalog-gen.c $(CATGEN_OBJ) $(LIBLAYOUTS) $(LIBMODEL)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $^ $(YAML_LIBS) $(CJSON_LIBS) -lm $(EXTRA_LDFLAGS) -o $@
$(BUILD)/gen/builtin_catalog.c: $(BUILD)/tools/catalog-gen $(EMBEDDED)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CATGEN  $(EMBEDDED)")
	$(Q)$(BUILD)/tools/catalog-gen $(EMBEDDED) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/builtin_catalog.o: $(BUILD)/gen/builtin_catalog.c
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CSTD) $(OPT) $(EXTRA_CFLAGS) -c $< -o $@

$(LIBMODEL): $(MODEL_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBLAYOUTS): $(LAYOUTS_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBIO): $(IO_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIBUI): $(UI_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(BUILD)/ui/main.o $(LIBUI) $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(OPT) $(EXTRA_CFLAGS) $^ $(BIN_LIBS) $(CJSON_LIBS) -lm $(EXTRA_LDFLAGS) -o $@

# --- tests ----------------------------------------------------------------
# The model and layouts tests link without ncurses, libyaml and cJSON.
$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CRIT_CFLAGS) $(shell pkg-config --cflags yaml-0.1 libcjson 2>/dev/null) $(CFLAGS_ALL) -Wno-missing-prototypes -c $< -o $@
$(BUILD)/tests/model_tests: $(TEST_MODEL_SRC:%.c=$(BUILD)/%.o) $(LIBMODEL)
	$(Q)$(CC) $(OPT) $(EXTRA_CFLAGS) $^ $(CRIT_LIBS) -lm $(EXTRA_LDFLAGS) -o $@
$(BUILD)/tests/layouts_tests: $(TEST_LAYOUTS_SRC:%.c=$(BUILD)/%.o) $(LIBLAYOUTS) $(LIBMODEL)
	$(Q)$(CC) $(OPT) $(EXTRA_CFLAGS) $^ $(CRIT_LIBS) -lm $(EXTRA_LDFLAGS) -o $@
$(BUILD)/tests/fuzz/targets.o: tests/fuzz/targets.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c $< -o $@
$(BUILD)/tests/fuzz/model_gen.o: tests/fuzz/model_gen.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c $< -o $@
$(BUILD)/tests/io_tests: $(TEST_IO_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/targets.o $(BUILD)/tests/fuzz/model_gen.o $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	$(Q)$(CC) $(OPT) $(EXTRA_CFLAGS) $^ $(CRIT_LIBS) $(YAML_LIBS) $(CJSON_LIBS) -lm $(EXTRA_LDFLAGS) -o $@
$(BUILD)/tests/ui_tests: $(TEST_UI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/designer.o $(BUILD)/tests/fuzz/targets.o $(BUILD)/tests/fuzz/model_gen.o $(LIBUI) $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	$(Q)$(CC) $(OPT) $(EXTRA_CFLAGS) $^ $(CRIT_LIBS) $(CURSES_LIBS) $(YAML_LIBS) $(CJSON_LIBS) -lm $(EXTRA_LDFLAGS) -o $@

$(BUILD)/tests/libfailwrite.so: tests/fault/failwrite.c
	@mkdir -p $(@D)
	$(Q)$(CC) -shared -fPIC -O1 $< -o $@ -ldl

tests-build: $(BIN) $(TEST_BINS) $(BUILD)/tests/libfailwrite.so $(BUILD)/tools/validate $(BUILD)/tools/bench

# Criterion's own Synthesis line is kept (no -q); any failure fails the target.
test-run: tests-build check-layers
	@fail=0; for t in $(TEST_BINS); do echo "== $$t"; $$t --jobs 2 || fail=1; done; \
	echo "== tests/cli.sh"; NCF_BIN=$(BIN) NCF_FAILWRITE=$(BUILD)/tests/libfailwrite.so sh tests/cli.sh || fail=1; \
	echo "== tests/tmux.sh"; NCF_BIN=$(BIN) NCF_FAILWRITE=$(BUILD)/tests/libfailwrite.so sh tests/tmux.sh || fail=1; \
	echo "== make validate"; NCFABRIC_CATALOG=share/catalog.yaml $(BUILD)/tools/validate tests/data/validate/points.yaml || fail=1; \
	echo "== bench --check"; $(BUILD)/tools/bench --check || fail=1; \
	exit $$fail

test: test-deps
	@$(MAKE) --no-print-directory test-run

run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/ncfabric

golden: test-deps
	@UPDATE_GOLDEN=1 $(MAKE) --no-print-directory test-run

# --- fuzzing: libFuzzer (clang) with ASan and UBSan -------------------------
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := design_yaml design_json catalog nccltests set pipeline designer model prices fail
FUZZ_BUILD := build-fuzz
# fuzz_model's limit: 16 ms for the release build, x3 for the fuzzer's ASan -O1 build.
FUZZ_MODEL_LIMIT_MS ?= 48
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined

$(BUILD)/fuzz/%: tests/fuzz/driver.c $(BUILD)/tests/fuzz/targets.o $(BUILD)/tests/fuzz/model_gen.o $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CSTD) $(OPT) $(WARN) $(EXTRA_CFLAGS) -fsanitize=fuzzer,address,undefined -DTARGET=fuzz_$* \
	  $(filter-out tests/fuzz/driver.c,$^) tests/fuzz/driver.c $(YAML_LIBS) $(CJSON_LIBS) -lm -o $@

# The designer target links the ui library; file writes and mkdir are wrapped so that the
# fuzzer writes only plain names in its own directory (tests/fuzz/designer.c).
$(BUILD)/tests/fuzz/designer.o: tests/fuzz/designer.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(PKG_CFLAGS) $(CFLAGS_ALL) $(if $(findstring fuzzer,$(EXTRA_CFLAGS)),-DNCF_FUZZ_SANDBOX) -c $< -o $@
$(BUILD)/fuzz/designer: tests/fuzz/driver.c $(BUILD)/tests/fuzz/designer.o $(BUILD)/tests/fuzz/targets.o $(BUILD)/tests/fuzz/model_gen.o $(LIBUI) $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CSTD) $(OPT) $(WARN) $(EXTRA_CFLAGS) -fsanitize=fuzzer,address,undefined -DTARGET=fuzz_designer \
	  $(filter-out tests/fuzz/driver.c,$^) tests/fuzz/driver.c -Wl,--wrap=file_write_atomic -Wl,--wrap=mkdir \
	  $(CURSES_LIBS) $(YAML_LIBS) $(CJSON_LIBS) -lm -o $@

fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)

# Seed corpora: the examples and the hostile files; JSON forms made by the binary.
fuzz-seeds: all
	@mkdir -p $(FUZZ_BUILD)/seeds/design_yaml $(FUZZ_BUILD)/seeds/design_json $(FUZZ_BUILD)/seeds/catalog \
	  $(FUZZ_BUILD)/seeds/nccltests $(FUZZ_BUILD)/seeds/set $(FUZZ_BUILD)/seeds/pipeline $(FUZZ_BUILD)/seeds/designer \
	  $(FUZZ_BUILD)/seeds/model $(FUZZ_BUILD)/seeds/prices $(FUZZ_BUILD)/seeds/fail
	@cp tests/fuzz/regressions/model/* $(FUZZ_BUILD)/seeds/model/
	@cp tests/data/prices-reference.yaml $(FUZZ_BUILD)/seeds/prices/
	@# fail: the first byte picks the design, the rest is the spec
	@i=0; for s in '\000nic:a100' '\000group:tor' '\000link:a100->tor:2' '\001switch:leaf' '\001switch:spine' \
	  '\001link:leaf->spine:8' '\002nic:tray' '\003switch:leaf'; do i=$$((i+1)); printf "$$s" > $(FUZZ_BUILD)/seeds/fail/f$$i; done
	@cp share/examples/*.yaml tests/data/bad/*.yaml $(FUZZ_BUILD)/seeds/design_yaml/
	@for f in share/examples/*.yaml; do $(BUILD)/ncfabric export $$f --format json \
	  -o $(FUZZ_BUILD)/seeds/design_json/$$(basename $$f .yaml).json; done
	@cp tests/data/bad/*.json $(FUZZ_BUILD)/seeds/design_json/
	@# the first byte picks the format: even YAML, odd JSON
	@(printf 'X'; cat share/catalog.yaml) > $(FUZZ_BUILD)/seeds/catalog/catalog.yaml
	@(printf 'Y'; python3 -c 'import json,sys,yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' \
	  share/catalog.yaml 2>/dev/null) > $(FUZZ_BUILD)/seeds/catalog/catalog.json || rm -f $(FUZZ_BUILD)/seeds/catalog/catalog.json
	@cp tests/data/nccl/*.log $(FUZZ_BUILD)/seeds/nccltests/
	@i=0; for s in units=4 servers=64 oversubscription=2 wiring=tor generation=xdr k=8 pods=3 gpu=b200 \
	  leaf=sn5600 nics=2 racks=4 1G 128K 16g; do i=$$((i+1)); printf '\00%s' "$$s" > $(FUZZ_BUILD)/seeds/set/s$$i; done
	@# pipeline: the first byte picks the format (even YAML, odd JSON) and the message size
	@for f in share/examples/*.yaml; do (printf 'X'; cat $$f) > $(FUZZ_BUILD)/seeds/pipeline/$$(basename $$f .yaml).yaml; \
	  (printf 'Y'; cat $(FUZZ_BUILD)/seeds/design_json/$$(basename $$f .yaml).json) > $(FUZZ_BUILD)/seeds/pipeline/$$(basename $$f .yaml).json; done
	@# designer: design (0-3), width 40 + byte, height 12 + byte (\050\014: 80x24), then the script
	@i=0; for f in tests/fuzz/designer/*.script; do for p in '\000\050\014' '\001\120\034' '\002\030\014' '\003\050\014'; do \
	  i=$$((i+1)); (printf "$$p"; cat $$f) > $(FUZZ_BUILD)/seeds/designer/$$(basename $$f .script)-$$i; done; done

fuzz: deps
	@command -v clang >/dev/null 2>&1 || $(MAKE) --no-print-directory DEB_PKGS="clang libclang-rt-dev" deps
	@$(MAKE) --no-print-directory fuzz-seeds
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g" EXTRA_CFLAGS="$(FUZZ_FLAGS)" fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/crashes/$$t; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  NCFABRIC_FUZZ_LIMIT_MS=$(FUZZ_MODEL_LIMIT_MS) $(FUZZ_BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
	    -artifact_prefix=$(abspath $(FUZZ_BUILD))/crashes/$$t/ $(abspath $(FUZZ_BUILD))/corpus/$$t $(abspath $(FUZZ_BUILD))/seeds/$$t 2>&1 | \
	    grep -E 'DONE|Done|INITED|^==|SUMMARY|artifact|stat::number_of_executed_units|stat::peak_rss' ; \
	  if ls $(FUZZ_BUILD)/crashes/$$t/* >/dev/null 2>&1; then echo "fuzz $$t: crashes in $(FUZZ_BUILD)/crashes/$$t"; exit 1; fi; \
	done

# --- checks ---------------------------------------------------------------
check-layers:
	@sh tools/check-layers.sh

check: test-deps
	@$(MAKE) --no-print-directory BUILD=build-check OPT="-O1 -g" \
	  EXTRA_CFLAGS="-Werror -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" test-run

# Memcheck over the Criterion suites and the real binary (no sanitizers: valgrind
# and ASan do not mix, so it builds its own tree).
valgrind: deps
	@command -v valgrind >/dev/null 2>&1 || $(MAKE) --no-print-directory DEB_PKGS=valgrind deps
	@$(MAKE) --no-print-directory BUILD=build-valgrind OPT="-O1 -g" tests-build
	@sh tools/valgrind.sh build-valgrind

$(BUILD)/tools/bench: tools/bench.c $(LIBUI) $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $^ $(YAML_LIBS) $(CJSON_LIBS) -lm -o $@

$(BUILD)/tools/gen-keys: tools/gen-keys.c $(LIBUI) $(LIBIO) $(LIBLAYOUTS) $(LIBMODEL)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $^ $(YAML_LIBS) $(CJSON_LIBS) -lm -o $@

# The KEYS section of the man page comes from the key table.
docs: $(BUILD)/tools/gen-keys
	@$(BUILD)/tools/gen-keys > $(BUILD)/keys.roff
	@awk -v keys=$(BUILD)/keys.roff '/KEYS BEGIN/{while((getline l < keys)>0) print l; skip=1; next} /KEYS END/{skip=0; next} !skip' \
	  share/ncfabric.1 > $(BUILD)/ncfabric.1.tmp && mv $(BUILD)/ncfabric.1.tmp share/ncfabric.1
	@echo "share/ncfabric.1: KEYS regenerated"

# BENCH_ARGS: e.g. --only "groups 500" --runs 11 (tools/bench.c says what each column is).
BENCH_ARGS ?=
bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(BUILD)/tools/bench
	@$(BUILD)/tools/bench --bin $(BIN) $(BENCH_ARGS)

# The model against published measurements (tests/data/validate/points.yaml): every point,
# then the median and maximum error per class; fails when a class leaves its tolerance.
$(BUILD)/tools/validate: tools/validate.c $(LIBIO) $(LIBMODEL)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $^ $(YAML_LIBS) $(CJSON_LIBS) -lm -o $@

validate: deps
	@$(MAKE) --no-print-directory $(BUILD)/tools/validate
	@NCFABRIC_CATALOG=share/catalog.yaml $(BUILD)/tools/validate tests/data/validate/points.yaml

# --- packages -------------------------------------------------------------
DEB_PKGS := libncurses-dev libyaml-dev libcjson-dev libcriterion-dev pkg-config tmux
# What the tests read the exports back with (tests/check_exports.py): Python's YAML and
# JSON Schema, and Graphviz; ps (procps) for the tmux tests, which find the designer under its pane.
TEST_PKGS := python3 python3-yaml python3-jsonschema graphviz procps
test-deps:
	@$(MAKE) --no-print-directory DEB_PKGS="$(DEB_PKGS) $(TEST_PKGS)" deps
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "ncfabric: installing missing packages:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) || exit 1; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) || exit 1; \
	else \
	  echo "ncfabric: run this first, then try again:"; \
	  echo "  sudo apt-get install -y$$missing"; exit 1; \
	fi

# --- install --------------------------------------------------------------
# The bash completion is generated from the binary's own command table.
$(BUILD)/ncfabric.bash: $(BIN)
	$(Q)$(BIN) --completion bash > $@.tmp && mv $@.tmp $@

install: all $(BUILD)/ncfabric.bash
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(COMPDIR) \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ncfabric
	install -m 644 share/catalog.yaml $(DESTDIR)$(DATADIR)/catalog.yaml
	install -m 644 share/examples/*.yaml $(DESTDIR)$(DOCDIR)/examples/
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 644 $(BUILD)/ncfabric.bash $(DESTDIR)$(COMPDIR)/ncfabric
	install -m 644 share/ncfabric.1 $(DESTDIR)$(PREFIX)/share/man/man1/ncfabric.1
	install -m 644 share/ncfabric.5 $(DESTDIR)$(PREFIX)/share/man/man5/ncfabric.5

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ncfabric $(DESTDIR)$(PREFIX)/share/man/man1/ncfabric.1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5/ncfabric.5 $(DESTDIR)$(COMPDIR)/ncfabric
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build build-check build-fuzz build-valgrind

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
