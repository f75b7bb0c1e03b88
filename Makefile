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

# Each layer sees only the headers it may include (../shared/STYLE.md):
# PCP and libgtop for collectors/ and pmda/, curses for tui/ only.
BASE_CFLAGS  = $(WARN) $(OPT) $(SAN) -D_GNU_SOURCE -I. -MMD -MP
PCP_CFLAGS   = $(call pc,--cflags,libpcp libpcp_pmda libgtop-2.0)
CURSES_CFLAGS = $(call pc,--cflags,ncursesw)
TEST_CFLAGS  = $(call pc,--cflags,cmocka)
LIBS         = $(call pc,--libs,ncursesw libpcp libgtop-2.0 libcrypto jansson) \
               -lpthread -lm
RUN_LIBS     = $(call pc,--libs,libpcp libgtop-2.0 libcrypto jansson) -lpthread -lm
PMDA_LIBS    = $(call pc,--libs,libpcp_pmda libpcp) -lpthread -lm
TEST_LIBS    = $(call pc,--libs,cmocka libpcp libgtop-2.0 libcrypto jansson) \
               -lpthread -lm

CORE_SRC := $(wildcard core/*.c)
COLL_SRC := $(wildcard collectors/*.c)
WL_SRC   := $(filter-out workloads/parallax_run.c,$(wildcard workloads/*.c))
TUI_SRC  := $(wildcard tui/*.c)
LIB_SRC  := $(CORE_SRC) $(COLL_SRC) $(WL_SRC)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TUI_OBJ  := $(TUI_SRC:%.c=$(BUILD)/%.o)
UNIT_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
INTEG_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/integration/test_*.c))

PARALLAX := $(BUILD)/parallax
PARALLAX_RUN := $(BUILD)/parallax-run
# the tiny static program the exec workloads run (lmbench's "hello")
HELLO := $(BUILD)/parallax-hello
LIBEXECDIR = $(PREFIX)/libexec/parallax
LIBPARALLAX := $(BUILD)/libparallax.a

.PHONY: all build deps run check test asan bench format format-check clean \
        install
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory build

build: $(PARALLAX) $(PARALLAX_RUN) $(HELLO) $(UNIT_TESTS) $(INTEG_TESTS)

deps:
	@./scripts/deps.sh

# The main job: this host and parallax's own micro-VM guest side by side.
# ARGS replaces --demo-guest, e.g. make run ARGS="-h vm1=10.0.0.5".
ARGS ?= --demo-guest
run: deps
	@$(MAKE) --no-print-directory build guest
	./$(PARALLAX) $(ARGS)

# All tests: format, unit (cmocka), integration (real PCP), screen (tmux).
check: deps
	@$(MAKE) --no-print-directory format-check
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
	    PARALLAX_SANITIZED=1 ./tests/run_all.sh build-asan

bench: deps
	@$(MAKE) --no-print-directory build
	@./bench/bench.sh $(BUILD)

FORMAT_FILES = $(shell git ls-files -co --exclude-standard -- '*.c' '*.h')
format:
	@clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run -Werror $(FORMAT_FILES) && echo "format: ok"

$(BUILD)/collectors/%.o $(BUILD)/pmda/%.o: XCFLAGS = $(PCP_CFLAGS)
$(BUILD)/tui/%.o: XCFLAGS = $(CURSES_CFLAGS)
$(BUILD)/core/%.o: XCFLAGS = $(call pc,--cflags,jansson)
$(BUILD)/workloads/%.o: XCFLAGS = $(call pc,--cflags,libcrypto) \
    -DPARALLAX_LIBEXEC='"$(LIBEXECDIR)"'
$(BUILD)/tests/%.o: XCFLAGS = $(TEST_CFLAGS) $(PCP_CFLAGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(XCFLAGS) -c $< -o $@

$(LIBPARALLAX): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(PARALLAX): $(TUI_OBJ) $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $(TUI_OBJ) $(LIBPARALLAX) $(LIBS)

$(PARALLAX_RUN): $(BUILD)/workloads/parallax_run.o $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $< $(LIBPARALLAX) $(RUN_LIBS)

# static and unsanitized: it must cost what lmbench's hello costs
$(HELLO): workloads/helper/parallax_hello.c
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -static -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $< $(LIBPARALLAX) $(TEST_LIBS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(PARALLAX) $(PARALLAX_RUN) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(LIBEXECDIR)
	install -m 755 $(HELLO) $(DESTDIR)$(LIBEXECDIR)/

# pmdaparallax, the guest agent (pmda/, issue 4): libpcp_pmda and the same
# libparallax.a the host uses. `make install` puts it where pmdaproc.sh
# expects it; ./Install there registers it with pmcd (README).
PMDA_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard pmda/*.c))
PMDA := $(BUILD)/pmdaparallax
PCP_PMDAS_DIR ?= $(or $(shell sed -n 's/^PCP_PMDAS_DIR=//p' \
    $${PCP_CONF:-/etc/pcp.conf} 2>/dev/null),/var/lib/pcp/pmdas)
PMDA_DIR = $(DESTDIR)$(PCP_PMDAS_DIR)/parallax
.PHONY: install-pmda
build: $(PMDA)
install: install-pmda

$(PMDA): $(PMDA_OBJ) $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $(PMDA_OBJ) $(LIBPARALLAX) $(PMDA_LIBS) \
	    $(call pc,--libs,libcrypto)

# the agent's control parsing is plain C, tested on its own
$(BUILD)/tests/unit/test_pmda_control: $(BUILD)/tests/unit/test_pmda_control.o \
    $(BUILD)/pmda/control.o $(LIBPARALLAX)
	$(CC) $(SAN) -o $@ $^ $(TEST_LIBS)

install-pmda: $(PMDA)
	install -d $(PMDA_DIR)
	install -m 755 $(PMDA) pmda/Install pmda/Remove $(PMDA_DIR)/
	install -m 644 pmda/pmns pmda/root pmda/help pmda/domain.h $(PMDA_DIR)/

# The demo guest (guest/, issue 6): Debian's cloud kernel and an initramfs
# holding pmcd, pmdaparallax and parallax-hello, made from this host's
# packages; guest/build-image.sh rebuilds only when the image would change.
# guest/boot.sh boots it (see its header for the contract).
GUEST := $(BUILD)/guest
.PHONY: guest
guest: deps
	@./guest/deps.sh
	@$(MAKE) -s --no-print-directory $(PMDA) $(HELLO)
	@./guest/build-image.sh $(GUEST) $(BUILD)

clean:
	rm -rf build build-asan bench/out

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
