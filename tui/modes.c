/* See modes.h. A pause freezes a copy of the models and cells, so that a
 * resize or a key while paused redraws the same figures; the samplers and
 * workloads run on underneath, and resuming shows where they are now. */
#include "tui/modes.h"

#include <curses.h>
#include <stdio.h>

#include "base/diag.h"
#include "cli/interval.h"
#include "tui/panel.h"

static void toggle_pause(struct modes *m, const struct session *s,
                         const struct jobs *j, char *status, size_t n)
{
    if (freeze_active(&m->frozen)) {
        freeze_release(&m->frozen);
        snprintf(status, n, "resumed");
        DIAG(DIAG_INFO, "display resumed");
    } else if (freeze_take(&m->frozen, s, j) < 0) {
        snprintf(status, n, "cannot pause: out of memory");
    } else {
        status[0] = '\0';
        DIAG(DIAG_INFO, "display paused");
    }
}

static void step_interval(struct modes *m, struct session *s, int dir,
                          char *status, size_t n)
{
    double iv = interval_step(s->interval, dir);
    char text[32];
    interval_format(iv, text, sizeof(text));
    if (iv == s->interval) {
        snprintf(status, n, "the interval is already %s, the %s", text,
                 dir > 0 ? "longest" : "shortest");
        return;
    }
    session_set_interval(s, iv);
    if (freeze_active(&m->frozen)) /* the title shows the live interval */
        m->frozen.s->interval = iv;
    snprintf(status, n, "sampling every %s", text);
}

/* q or F10: quits at once, or asks first while workloads run. */
static int ask_quit(struct modes *m, const struct jobs *j)
{
    if (!jobs_own_running(j, -1)) /* a guest's foreign runs go on */
        return KR_QUIT;
    prompt_open(&m->confirm, "workloads are running: stop them and quit? "
                             "(y/n) ");
    return KR_HANDLED | KR_REDRAW;
}

static int confirm_key(struct modes *m, int ch, char *status, size_t n)
{
    if (ch == KEY_RESIZE) /* stays asked */
        return KR_HANDLED | KR_REDRAW;
    m->confirm.active = false;
    if (ch == 'y' || ch == 'Y')
        return KR_QUIT;
    snprintf(status, n, "not quitting; the workloads go on");
    return KR_HANDLED | KR_REDRAW;
}

int modes_key(struct modes *m, struct session *s, const struct jobs *j, int ch,
              char *status, size_t statuslen)
{
    if (m->help.open)
        return help_key(&m->help, ch);
    if (m->latency.open)
        return latency_panel_key(&m->latency, j, ch);
    if (m->confirm.active)
        return confirm_key(m, ch, status, statuslen);
    switch (ch) {
    case KEY_F(1):
    case 'h':
    case '?':
        help_open(&m->help);
        return KR_HANDLED | KR_REDRAW;
    case 'l':
        latency_panel_open(&m->latency, s, j);
        return KR_HANDLED | KR_REDRAW;
    case 'p':
        toggle_pause(m, s, j, status, statuslen);
        return KR_HANDLED | KR_REDRAW;
    case '+':
    case '-':
        step_interval(m, s, ch == '+' ? 1 : -1, status, statuslen);
        return KR_HANDLED | KR_REDRAW;
    case 'v': /* the host's view of its VMs, or the table again */
        m->vms = !m->vms;
        return KR_HANDLED | KR_REDRAW;
    case 'q':
    case 'Q':
    case KEY_F(10):
        return ask_quit(m, j);
    default:
        return KR_IGNORED;
    }
}

bool modes_paused(const struct modes *m)
{
    return freeze_active(&m->frozen);
}

void modes_draw(struct modes *m, const struct session *s, const struct jobs *j,
                struct table_panel *table, const struct prompt *prompt,
                bool utf8)
{
    struct screen_overlay ov = {
        .prompt = m->confirm.active ? &m->confirm : prompt,
        .help = m->help.open ? &m->help : NULL,
        .latency = m->latency.open ? &m->latency : NULL,
        .paused = freeze_active(&m->frozen),
        .badge = m->badge,
        .vms = m->vms,
    };
    table->shown_at = ov.paused ? m->frozen.at : 0;
    if (ov.paused)
        screen_draw(m->frozen.s, m->frozen.j, table, &ov, utf8);
    else
        screen_draw(s, j, table, &ov, utf8);
}

void modes_free(struct modes *m)
{
    freeze_release(&m->frozen);
}
