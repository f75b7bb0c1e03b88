/* pmdaparallax's Performance Metrics Domain: from the end-user range of
 * $PCP_VAR_DIR/pmns/stdpmid (385-510, allocated from the top down), not
 * taken by any PMDA PCP ships. Install honours PARALLAX_DOMAIN and the
 * agent takes -d, like every PMDA. */
#define PARALLAX 498
