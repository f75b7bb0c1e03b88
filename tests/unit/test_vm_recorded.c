/* A recorded VM's text between the archive reader and parallax
 * (core/vm_recorded.h): what is formatted parses back to the same VM
 * (figures to the last bit), the recorded notes, shown texts and faults
 * land in their rows, and a text from a reader that could say anything
 * is bounded and made safe: unknown lines skipped, long fields cut,
 * controls replaced, no name refused. The label drops .PID and .N. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/vm_recorded.h"

static void test_round_trip(void **state)
{
    (void)state;
    struct vm_recorded v, w;
    vm_recorded_clear(&v);
    snprintf(v.name, sizeof(v.name), "web_a.1234.2");
    snprintf(v.kind, sizeof(v.kind), "qemu");
    snprintf(v.guest, sizeof(v.guest), "g1");
    snprintf(v.how, sizeof(v.how), "vm=web a");
    snprintf(v.told, sizeof(v.told), "vCPUs by thread name");
    v.pid = 1234;
    v.nvcpu = 2;
    v.run_s = 3.4612345678901234;
    v.wait_s = 0.0209;
    v.read_mono = 12345.678901234567;
    v.fig[VMR_RUN] = 38.21234567890123;
    v.fig[VMR_RSS] = 273338368;
    vm_recorded_set_notes(&v, "steal_held\theld 35%, said 0%\n"
                              "kvm_exits\tno KVM: emulated (TCG)\n");
    vm_recorded_set_shown(&v, "run_cpu\t-\nkvm_exits\tn/a\n");
    vm_recorded_set_faults(&v, "steal_held run_cpu");
    char text[8192];
    assert_true(vm_recorded_format(&v, text, sizeof(text)) > 0);
    assert_true(vm_recorded_parse(text, &w));
    assert_string_equal(w.name, v.name);
    assert_string_equal(w.kind, "qemu");
    assert_string_equal(w.guest, "g1");
    assert_string_equal(w.how, "vm=web a");
    assert_string_equal(w.told, "vCPUs by thread name");
    assert_int_equal(w.pid, 1234);
    assert_int_equal(w.nvcpu, 2);
    assert_true(w.run_s == v.run_s && w.wait_s == v.wait_s &&
                w.read_mono == v.read_mono);
    for (int row = 0; row < VM_ROW_COUNT; row++) {
        if (isnan(v.fig[row]))
            assert_true(isnan(w.fig[row]));
        else
            assert_true(w.fig[row] == v.fig[row]);
        assert_string_equal(w.note[row], v.note[row]);
        assert_string_equal(w.shown[row], v.shown[row]);
    }
    assert_string_equal(w.note[VMR_HELD], "held 35%, said 0%");
    assert_string_equal(w.shown[VMR_RUN_CPU], "-");
    assert_int_equal(w.faults, (1u << VMR_HELD) | (1u << VMR_RUN_CPU));
    /* too small a buffer: refused, not cut */
    assert_int_equal(vm_recorded_format(&v, text, 40), -1);
}

static void test_hostile(void **state)
{
    (void)state;
    struct vm_recorded w;
    char text[4096], longname[600];
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    snprintf(text, sizeof(text),
             "name\t%s\nkind\tq\033[2Jemu\npid\t-5\nnvcpu\t1e300\n"
             "fig\tnope\t3\nfig\tvcpu_run\tinf\nfig\tvm_rss\t12\n"
             "note\tvcpu_run\tbad\x07 bell\nfault\tvcpu_wait\n"
             "fault\tno_row\nrandom line\n\tstarts with a tab\n",
             longname);
    assert_true(vm_recorded_parse(text, &w));
    assert_int_equal(strlen(w.name), sizeof(w.name) - 1);
    assert_null(strchr(w.kind, '\033'));
    assert_int_equal(w.pid, -1);
    assert_int_equal(w.nvcpu, -1);
    assert_true(isnan(w.fig[VMR_RUN]));
    assert_true(w.fig[VMR_RSS] == 12);
    assert_null(strchr(w.note[VMR_RUN], '\a'));
    assert_int_equal(w.faults, 1u << VMR_WAIT);
    assert_false(vm_recorded_parse("kind\tqemu\npid\t3\n", &w));
    assert_false(vm_recorded_parse("", &w));
}

static void test_label(void **state)
{
    (void)state;
    struct vm_recorded v;
    char buf[96];
    vm_recorded_clear(&v);
    v.pid = 1234;
    const char *const in[] = {"web_a.1234", "web_a.1234.2", "a.1234.b.1234",
                              "qemu-1234.1234", "name.12345"};
    const char *const want[] = {"web_a", "web_a", "a.1234.b", "qemu-1234",
                                "name.12345"};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        snprintf(v.name, sizeof(v.name), "%s", in[i]);
        vm_recorded_label(&v, buf, sizeof(buf));
        assert_string_equal(buf, want[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
