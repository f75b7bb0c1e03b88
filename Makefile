# parallax: host and guests side by side.
# `make run` and `make check` set up a fresh Debian 12 machine themselves
# (through `make deps`), then build and run or test.

BUILD   ?= build
PREFIX  ?= /usr/local
OPT     ?= -O2 -g
SAN     ?=
CC      ?= cc

WARN := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wpointer-arith -Wformat=2 -Wvla
# CI (and anyone who asks with WERROR=1) turns every warning into an error.
ifneq ($(CI)$(WERROR),)
WARN += -Werror
endif

pc = $(shell pkg-config $(1) $(2) 2>/dev/null)

# Each floor sees only the libraries it may include (docs/hacking.md, the
# floors; scripts/check_includes.sh reads the sources for it): PCP and
# libgtop for collectors/ and pmda/, PCP's archive writer (libpcp_import)
# for archive/, curses for tui/ only.
# CPPFLAGS, CFLAGS and LDFLAGS are the builder's (debian/rules passes
# dpkg's hardening flags); OPT comes after CFLAGS, so the -O and -g chosen
# here (the CPU loops' -O3 -ffast-math too) stay.
BASE_CFLAGS  = $(WARN) $(CPPFLAGS) $(CFLAGS) $(OPT) $(SAN) -D_GNU_SOURCE -I. \
               -MMD -MP
PCP_CFLAGS   = $(call pc,--cflags,libpcp libpcp_pmda libgtop-2.0)
ARCHIVE_CFLAGS = $(call pc,--cflags,libpcp libpcp_import)
CURSES_CFLAGS = $(call pc,--cflags,ncursesw)
TEST_CFLAGS  = $(call pc,--cflags,cmocka)
# libgtop is dlopen'ed by collectors/gtop_source.c when the fallback is
# needed, not linked: it and GLib cost a megabyte of RSS (issue 10). So
# are libcurl (fleet/http.c: --fleet only; it brought 30 TLS, HTTP/2, SSH,
# LDAP and Kerberos libraries) and libpcp_import (archive/pmi_lib.c: a
# recording only), issue 29; debian/control names their packages.
LIBS         = $(call pc,--libs,ncursesw libpcp libcrypto jansson) \
               -lpthread -lm -ldl
RUN_LIBS     = $(call pc,--libs,libpcp libcrypto jansson) -lpthread -lm -ldl
PMDA_LIBS    = $(call pc,--libs,libpcp_pmda libpcp) -lpthread -lm -ldl
TEST_LIBS    = $(call pc,--libs,cmocka libpcp_import libpcp libcrypto \
               jansson libcurl) \
               -lpthread -lm -ldl

# The floors, bottom to top (docs/hacking.md; scripts/check_includes.sh
# holds every include to them), whose code is libparallax.a: one source
# list per floor, so every file of a floor is built. A new floor is a word
# here and a line of the floors table. The screen (tui/) and the guest
# agent (pmda/) are programs of their own on top of it.
LIB_FLOORS := base workloads core runner collectors session fleet guest \
    view theme report archive cli
# the mains of parallax-run and parallax-archive (the archive reader) are
# programs of their own, not library code
MAINS := runner/parallax_run.c collectors/parallax_archive.c
floor_src = $(filter-out $(MAINS),$(wildcard $(1)/*.c))
$(foreach f,$(LIB_FLOORS),$(eval SRC_$(f) := $(call floor_src,$(f))))
# guest/ is the demo guest's launcher (guest/demo_guest*.c); the rest of
# guest/ builds and boots the guest itself (guest/clock_sync.c is built
# into its image). The launcher's objects stay out of $(BUILD)/guest,
# which holds the image (and is a link to the ordinary build's under make
# asan).
SRC_guest := $(wildcard guest/demo_guest*.c)
LAUNCH_OBJ := $(SRC_guest:guest/%.c=$(BUILD)/guest-launcher/%.o)
WL_SRC   := $(SRC_workloads)
TUI_SRC  := $(wildcard tui/*.c)
LIB_SRC  := $(foreach f,$(filter-out guest,$(LIB_FLOORS)),$(SRC_$(f)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(LAUNCH_OBJ)
TUI_OBJ  := $(TUI_SRC:%.c=$(BUILD)/%.o)
UNIT_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
INTEG_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/integration/test_*.c))
# programs the shell tests run (not tests of their own): the agent's names
# as parallax's code uses them (tests/integration/test_agent_names.sh)
TEST_HELPERS := $(BUILD)/tests/integration/agent_names

PARALLAX := $(BUILD)/parallax
PARALLAX_RUN := $(BUILD)/parallax-run
# the process that reads an archive for parallax (-a, --baseline): libpcp
# crashes on some archives, and there a crash ends the reader only
# (collectors/archive_child.c)
ARCHIVE_READER := $(BUILD)/parallax-archive
# the archive fuzz target (fuzz/fuzz_archive.c) without libFuzzer: make
# check runs it for a bounded time (tests/integration/test_archive_fuzz.sh)
FUZZ_ARCHIVE := $(BUILD)/fuzz-archive
# the tiny static program the exec workloads run (lmbench's "hello")
HELLO := $(BUILD)/parallax-hello
# the same program linked dynamically (lmbench's hello, UnixBench's execl)
HELLO_DYN := $(BUILD)/parallax-hello-dyn
LIBEXECDIR = $(PREFIX)/libexec/parallax
LIBPARALLAX := $(BUILD)/libparallax.a

.PHONY: all build programs deps run check test asan bench format \
        format-check clean install install-files install-bin
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory build

build: programs $(UNIT_TESTS) $(INTEG_TESTS) $(TEST_HELPERS)

# what is installed, without the tests (debian/rules builds this)
programs: $(PARALLAX) $(PARALLAX_RUN) $(ARCHIVE_READER) $(HELLO) $(HELLO_DYN)

deps:
	@./scripts/deps.sh

# The main job: this host and parallax's own micro-VM guest side by side.
# ARGS replaces --demo-guest, e.g. make run ARGS="-h vm1=10.0.0.5".
ARGS ?= --demo-guest
run: deps
	@$(MAKE) --no-print-directory build guest
	./$(PARALLAX) $(ARGS)

# All tests: format, the floors' includes, unit (cmocka), integration
# (real PCP), screen (tmux).
check: deps
	@$(MAKE) --no-print-directory format-check include-check
	@$(MAKE) --no-print-directory build guest
	@./tests/run_all.sh $(BUILD)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
# The guest image is the ordinary build's: the sanitizers check the host
# side; the guest runs the plain agent.
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="-O1 -g" \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    build
	@$(MAKE) --no-print-directory guest
	@ln -sfn ../$(BUILD)/guest build-asan/guest
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    PARALLAX_SANITIZED=1 ./tests/run_all.sh build-asan

# A fleet of FLEET_N (100) sources on this machine through redis-server,
# pmproxy and a pmlogger farm of private pmcds, watched by parallax
# --fleet (fleet/demo.sh; FLEET_ARGS go to parallax; docs/fleet.md).
.PHONY: fleet-demo
fleet-demo: deps
	@$(MAKE) --no-print-directory build
	@./fleet/demo.sh $(BUILD) $(FLEET_ARGS)

# What watching costs, against htop and pmstat, with many and stalled guests,
# recording and a fleet
# (bench/bench.sh; about 18 minutes, the fleet's part about 10 of them;
# QUICK=1 shorter windows).
bench: deps
	@$(MAKE) --no-print-directory build
	@./bench/bench.sh $(BUILD)

FORMAT_FILES = $(shell git ls-files -co --exclude-standard -- '*.c' '*.h')
format:
	@clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run -Werror $(FORMAT_FILES) && echo "format: ok"

# Includes point down the floors; curses, PCP and the other libraries only
# where the floors table of docs/hacking.md lets them.
.PHONY: include-check
include-check:
	@./scripts/check_includes.sh

$(BUILD)/collectors/%.o $(BUILD)/pmda/%.o: XCFLAGS = $(PCP_CFLAGS)
$(BUILD)/archive/%.o: XCFLAGS = $(ARCHIVE_CFLAGS)
$(BUILD)/tui/%.o: XCFLAGS = $(CURSES_CFLAGS)
$(BUILD)/report/%.o: XCFLAGS = $(call pc,--cflags,jansson)
$(BUILD)/fleet/%.o: XCFLAGS = $(call pc,--cflags,libcurl jansson)
$(BUILD)/theme/%.o: XCFLAGS = -DPARALLAX_THEMEDIR='"$(THEMEDIR)"'
$(BUILD)/workloads/%.o: XCFLAGS = $(call pc,--cflags,libcrypto)
# where the helper programs are installed (base/exec_helper.c)
$(BUILD)/base/%.o: XCFLAGS = -DPARALLAX_LIBEXEC='"$(LIBEXECDIR)"'
$(BUILD)/tests/%.o: XCFLAGS = $(TEST_CFLAGS) $(PCP_CFLAGS)
# The CPU loops are compiled as UnixBench compiles dhry2reg and whetstone
# (-O3 -ffast-math), so that their figures can agree; not its
# -march=native: the same objects run in guests with other CPUs (on an
# AVX2/FMA host, UnixBench's own loops built without it ran as fast,
# within the 3% noise).
$(BUILD)/workloads/dhry.o $(BUILD)/workloads/whet.o: OPT = -O3 -ffast-math -g

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(XCFLAGS) -c $< -o $@

$(LAUNCH_OBJ): $(BUILD)/guest-launcher/%.o: guest/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -DPARALLAX_GUESTDIR='"$(GUESTDIR)"' -c $< -o $@

$(LIBPARALLAX): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(PARALLAX): $(TUI_OBJ) $(LIBPARALLAX)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(TUI_OBJ) $(LIBPARALLAX) $(LIBS)

$(PARALLAX_RUN): $(BUILD)/runner/parallax_run.o $(LIBPARALLAX)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(LIBPARALLAX) $(RUN_LIBS)

$(ARCHIVE_READER): $(BUILD)/collectors/parallax_archive.o $(LIBPARALLAX)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(LIBPARALLAX) $(RUN_LIBS)

build: $(FUZZ_ARCHIVE)
$(FUZZ_ARCHIVE): $(BUILD)/fuzz/fuzz_archive.o $(BUILD)/fuzz/fuzz_archive_main.o \
    $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $(filter %.o,$^) $(LIBPARALLAX) $(RUN_LIBS)

# static and unsanitized: it must cost what lmbench's hello costs
HELLO_SRC := workloads/helper/parallax_hello.c workloads/helper/fork_server.h
$(HELLO): $(HELLO_SRC)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -O2 -I. $(LDFLAGS) -static -o $@ $<

$(HELLO_DYN): $(HELLO_SRC)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -O2 -I. $(LDFLAGS) -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $< $(LIBPARALLAX) $(TEST_LIBS)

# Keep the test objects. Deleted as intermediates after a first build, the
# next make rebuilt them (their .d files name them), with its own flags:
# test_install's `make install` then relinked the sanitizer build's tests
# without the sanitizers and failed, on every fresh clone's `make asan`.
.SECONDARY: $(UNIT_TESTS:%=%.o) $(INTEG_TESTS:%=%.o) $(TEST_HELPERS:%=%.o)

# tui/ code under a unit test: curses instead of the collectors
$(BUILD)/tests/unit/test_row_cache.o: XCFLAGS = $(TEST_CFLAGS) $(CURSES_CFLAGS)
$(BUILD)/tests/unit/test_row_cache: $(BUILD)/tests/unit/test_row_cache.o \
    $(BUILD)/tui/row_cache.o
	$(CC) $(SAN) -o $@ $^ $(call pc,--libs,cmocka ncursesw)

# make install: deps and the build first; install-files only copies (what
# debian/rules runs after `make programs`).
install: all
	@$(MAKE) --no-print-directory install-files
install-files: install-bin

# parallax is also `pcp parallax`: pcp(1) runs $PCP_BINADM_DIR/pcp-NAME
PCP_BINADM_DIR ?= $(or $(shell sed -n 's/^PCP_BINADM_DIR=//p' \
    $${PCP_CONF:-/etc/pcp.conf} 2>/dev/null),/usr/lib/pcp/bin)
install-bin: programs
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(PARALLAX) $(PARALLAX_RUN) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(LIBEXECDIR)
	install -m 755 $(HELLO) $(HELLO_DYN) $(ARCHIVE_READER) \
	    $(DESTDIR)$(LIBEXECDIR)/
	install -d $(DESTDIR)$(PCP_BINADM_DIR)
	ln -sfn $(PREFIX)/bin/parallax $(DESTDIR)$(PCP_BINADM_DIR)/pcp-parallax

# pmdaparallax, the guest agent (pmda/, issue 4): libpcp_pmda and the same
# libparallax.a the host uses. `make install` puts it where pmdaproc.sh
# expects it; ./Install there registers it with pmcd (docs/guests.md).
PMDA_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard pmda/*.c))
PMDA := $(BUILD)/pmdaparallax
PCP_PMDAS_DIR ?= $(or $(shell sed -n 's/^PCP_PMDAS_DIR=//p' \
    $${PCP_CONF:-/etc/pcp.conf} 2>/dev/null),/var/lib/pcp/pmdas)
PMDA_DIR = $(DESTDIR)$(PCP_PMDAS_DIR)/parallax
.PHONY: install-pmda
build programs: $(PMDA)
install-files: install-pmda

$(PMDA): $(PMDA_OBJ) $(LIBPARALLAX)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(PMDA_OBJ) $(LIBPARALLAX) $(PMDA_LIBS) \
	    $(call pc,--libs,libcrypto)

# the agent's control parsing is plain C, tested on its own
$(BUILD)/tests/unit/test_pmda_control: $(BUILD)/tests/unit/test_pmda_control.o \
    $(BUILD)/pmda/control.o $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $^ $(TEST_LIBS)

install-pmda: $(PMDA)
	install -d $(PMDA_DIR)
	install -m 755 $(PMDA) pmda/Install pmda/Remove $(PMDA_DIR)/
	install -m 644 pmda/pmns pmda/root pmda/help pmda/domain.h $(PMDA_DIR)/

# Manual pages (man/): parallax(1), parallax-run(1), pmdaparallax(1).
MANDIR = $(PREFIX)/share/man
.PHONY: install-man
install-files: install-man
install-man:
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/parallax.1 man/parallax-run.1 man/pmdaparallax.1 \
	    $(DESTDIR)$(MANDIR)/man1/
	ln -sfn parallax.1 $(DESTDIR)$(MANDIR)/man1/pcp-parallax.1

# The Debian packages (debian/, scripts/deb.sh): parallax and
# pcp-pmda-parallax in $(BUILD)/deb, built by dpkg-buildpackage from a copy
# of the tree, then lintian (no errors allowed). Rebuilt when a source
# changed. `apt install ./build/deb/parallax_*.deb` installs one (README).
DEB_DIR = $(BUILD)/deb
.PHONY: deb
deb: deps
	@./scripts/deb.sh --lint $(DEB_DIR)

# The demo guest (guest/, issue 6): Debian's cloud kernel and an initramfs
# holding pmcd from this host's packages and the agent from its own
# (pcp-pmda-parallax, built first: what users install is what runs there); guest/build-image.sh rebuilds only when the image would change.
# guest/boot.sh boots it (see its header for the contract).
GUEST := $(BUILD)/guest
.PHONY: guest
guest: deps
	@./guest/deps.sh
	@./scripts/deb.sh $(DEB_DIR)
	@./guest/build-image.sh $(GUEST) $(BUILD)

# The demo guest's builder and boot script (guest/README.md), for an
# installed parallax: it builds the image into ~/.cache/parallax/guest
# from this host's pcp and the installed pcp-pmda-parallax.
GUESTDIR = $(PREFIX)/share/parallax/guest
GUEST_SCRIPTS := boot.sh build-image.sh fetch-kernel.sh variant-image.sh \
    uml-slirp.sh deps.sh init
.PHONY: install-guest
install-files: install-guest
install-guest:
	install -d $(DESTDIR)$(GUESTDIR)
	install -m 755 $(GUEST_SCRIPTS:%=guest/%) $(DESTDIR)$(GUESTDIR)/
	install -m 644 guest/clock_sync.c guest/README.md $(DESTDIR)$(GUESTDIR)/

# Colour themes (themes/README): the installed ones are the last place
# parallax looks (theme/theme_path.h); one is compiled in besides.
THEMEDIR = $(PREFIX)/share/parallax/themes
.PHONY: install-themes fuzz
install-files: install-themes
install-themes:
	install -d $(DESTDIR)$(THEMEDIR)
	install -m 644 themes/*.theme themes/README $(DESTDIR)$(THEMEDIR)/

# The parsers of outside input under libFuzzer with ASan and UBSan, each
# for FUZZ_TIME seconds (fuzz/*.c): themes, baselines (the report reader),
# the agent's control commands, text from guests and the command line,
# and archives (the path -a and --baseline take, libpcp's crashes in the
# reader counted: fuzz_archive prints them at exit). Fails on a crash, a
# leak or undefined behaviour of parallax's. Needs clang (scripts/deps.sh
# fuzz), which make check does not: it runs the archive target for 30 s
# without libFuzzer (tests/integration/test_archive_fuzz.sh).
FUZZ_TIME ?= 60
FUZZERS := theme report control text archive
FUZZ_SRC_theme := theme/theme.c theme/theme_color.c base/safe_text.c
FUZZ_SRC_report := report/report_read.c core/model.c core/clock_model.c \
    core/cpu_share.c \
    core/history.c core/rate.c core/metrics.c base/safe_text.c core/time_map.c \
    core/vm_recorded.c core/vm_rows.c
FUZZ_SRC_control := pmda/control.c $(WL_SRC) $(SRC_runner) \
    base/exec_helper.c base/safe_text.c
FUZZ_SRC_text := core/source_spec.c base/safe_text.c
# archives through -a's and --baseline's path; libpcp reads them in
# parallax-archive (the ordinary build's), whose crashes are findings
# (fuzz/fuzz_archive.c); seeds: a fresh recording and its mutations
FUZZ_SRC_archive := collectors/archive_frame.c collectors/archive_child.c \
    collectors/archive_wire.c collectors/archive_find.c \
    report/archive_baseline.c core/model.c core/clock_model.c \
    core/cpu_share.c core/history.c core/rate.c core/metrics.c \
    base/safe_text.c base/clock.c core/time_map.c base/file_kind.c \
    base/exec_helper.c core/vm_recorded.c core/vm_rows.c
FUZZ_LIBS_report := $(call pc,--libs,jansson) -lm
FUZZ_LIBS_control := $(call pc,--libs,libcrypto) -lm -lpthread
FUZZ_SEEDS_theme := themes
FUZZ_SEEDS_report := fuzz/seeds/report
FUZZ_SEEDS_control := fuzz/seeds/control
FUZZ_SEEDS_text := fuzz/seeds/text
FUZZ_SEEDS_archive := $(BUILD)/fuzz/seeds-archive
FUZZ_LIBS_archive := -lm -lpthread
define fuzz_rule
$(BUILD)/fuzz/fuzz_$(1): fuzz/fuzz_$(1).c $$(FUZZ_SRC_$(1)) $$(wildcard */*.h)
	@mkdir -p $$(@D)/corpus-$(1)
	clang $$(WARN) -g -O1 -D_GNU_SOURCE -I. $$(XCFLAGS_fuzz) \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -o $$@ fuzz/fuzz_$(1).c $$(FUZZ_SRC_$(1)) $$(FUZZ_LIBS_$(1))
endef
XCFLAGS_fuzz = -DPARALLAX_LIBEXEC='"$(LIBEXECDIR)"' \
    $(call pc,--cflags,jansson libcrypto)
$(foreach f,$(FUZZERS),$(eval $(call fuzz_rule,$(f))))
FUZZ_LEN_report := 65536
FUZZ_LEN_archive := 65536
$(BUILD)/fuzz/seeds-archive: $(PARALLAX) tests/archive_mutations.py
	rm -rf $@ $@.rec
	$(PARALLAX) --record $@.rec --text -n 4 -t 0.2 >/dev/null
	/usr/bin/python3 tests/archive_mutations.py \
	    "$$(ls $@.rec/host/*.meta | sed 's/\.meta$$//')" $@
	rm -rf $@.rec
fuzz:
	@./scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZERS:%=$(BUILD)/fuzz/fuzz_%) \
	    $(ARCHIVE_READER) $(BUILD)/fuzz/seeds-archive
	PARALLAX_LIBEXEC=$(CURDIR)/$(BUILD) \
	$(foreach f,$(FUZZERS),$(BUILD)/fuzz/fuzz_$(f) \
	    -max_total_time=$(FUZZ_TIME) -max_len=$(or $(FUZZ_LEN_$(f)),4096) \
	    $(if $(wildcard fuzz/$(f).dict),-dict=fuzz/$(f).dict) \
	    $(BUILD)/fuzz/corpus-$(f) $(FUZZ_SEEDS_$(f)) &&) true

clean:
	rm -rf build build-asan bench/out

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
