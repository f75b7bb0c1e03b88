/* See archive_keys.h. */
#include "tui/archive_keys.h"

#include "tui/panel.h"

int archive_keys(struct archives *a, const struct session *s, int ch,
                 char *status, size_t n)
{
    enum replay_action act;
    switch (ch) {
    case 'r':
        archives_toggle_record(a, status, n);
        return KR_HANDLED | KR_REDRAW;
    case ',':
        act = REPLAY_PAUSE;
        break;
    case '.':
        act = REPLAY_STEP;
        break;
    case ']':
        act = REPLAY_FASTER;
        break;
    case '[':
        act = REPLAY_SLOWER;
        break;
    case 'n':
        act = REPLAY_NEXT;
        break;
    default:
        return KR_IGNORED;
    }
    replay_control(&a->replay, s, act, status, n);
    return KR_HANDLED | KR_REDRAW;
}
