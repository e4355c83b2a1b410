from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t

cdef extern from "core.h":
    ctypedef uint16_t MoveCode
    MoveCode MOVE_NONE
    ctypedef struct Key:
        uint64_t w[3]
    ctypedef struct StateBuf:
        uint64_t raw[12]
    ctypedef struct GameOps:
        size_t state_size
        int (*gen_moves)(const void *deal, const void *state, MoveCode *out, int reduced, unsigned prune) noexcept nogil
        void (*apply)(const void *deal, const void *state, MoveCode m, void *out) noexcept nogil
        int (*is_won)(const void *deal, const void *state) noexcept nogil
        void (*key)(const void *deal, const void *state, Key *out) noexcept nogil
        int (*is_dead)(const void *deal, void *state, unsigned prune, MoveCode via,
                       void *scratch) noexcept nogil
        int (*level)(const void *deal, const void *state) noexcept nogil
        int (*choice_cost)(const void *deal, const void *state, int mode) noexcept nogil
        int probe_modes
        int modes_nested
        int wide_mode
    int MAX_MOVES
    unsigned PRUNE_ALL, PRUNE_SAFE_FOUNDATION, PRUNE_BANNER_REACH, PRUNE_SYMMETRY
    unsigned PRUNE_BANNER_PREFIX, PRUNE_LONE_CARD, PRUNE_LAST_COPIES
    unsigned PRUNE_PARKING_ROOM, PRUNE_DEAD_CACHE, PRUNE_LAZY_PLAYS, PRUNE_DEEP_ROOM
    unsigned PRUNE_DEAL_CACHE, PRUNE_LAZY_ORDER, PRUNE_FEED_FIRST, PRUNE_CELL_WAIT
    unsigned PRUNE_BANNER_AHEAD, PRUNE_LAZY_FEED, PRUNE_STUCK_STOCK, PRUNE_SEALED_CAP
    unsigned PRUNE_RANDOM_LINES, PRUNE_GUIDED_LINES, PRUNE_ROOT_WALK_CAP

cdef extern from "table.h":
    ctypedef struct MemPool:
        size_t max
        size_t used
        size_t peak
    ctypedef struct Table:
        Key *slots
        uint8_t *tags
        uint64_t capacity
        uint64_t allocated
        uint64_t count
        uint64_t limit
        size_t max_bytes
        double grow_rate
    int TABLE_NEW, TABLE_SEEN, TABLE_FULL, TABLE_TIME
    int table_init(Table *t, size_t max_bytes) nogil
    void table_free(Table *t) nogil
    void table_reset(Table *t, uint64_t want) nogil
    int table_insert(Table *t, const Key *key) nogil
    void table_set_deadline(Table *t, double deadline, double grow_rate) nogil
    void table_forget_rates() nogil
    int table_contains(const Table *t, const Key *key) nogil
    uint64_t table_key_hash(const Key *key) nogil

cdef extern from "search.h":
    enum: MAX_STEPS
    ctypedef struct SearchLimits:
        uint64_t max_nodes
        double max_seconds
        size_t max_bytes
        unsigned prune
        int probes
        int (*poll)(void *ctx) noexcept
        void *poll_ctx
        int *stop
        MemPool *pool
        int plain
        int root_walk_cap
        uint64_t seed
        int lines_only
    ctypedef struct SearchStep:
        uint64_t budget
        uint64_t nodes
        int16_t max_disc
        int8_t kind
        int8_t round
        int8_t mode
        int8_t twin
        int8_t status
    ctypedef struct SearchResult:
        int status
        uint64_t nodes
        uint64_t states
        size_t table_bytes
        size_t peak_bytes
        double seconds
        double final_start
        MoveCode *path
        int path_len
        SearchStep steps[MAX_STEPS]
        int n_steps
    enum:
        PLAIN_GENERIC_DFS
        PLAIN_NO_PREFETCH
    int search_random_lines(const GameOps *ops, const void *deal, unsigned prune) nogil
    int search_run(const GameOps *ops, const void *deal, const void *start, const SearchLimits *lim,
                   SearchResult *out) nogil
    double search_clock() nogil
    void search_stop(int *flag) nogil

cdef extern from "salic.h":
    ctypedef struct SalicDeal:
        pass
    ctypedef struct SalicState:
        uint64_t present[2]
        uint8_t sp, nq, on_found
        uint8_t parked[8]
        uint8_t cnt[13]
    int salic_setup(SalicDeal *deal, SalicState *start, const uint8_t *cards, int suited_slots,
                    int slots_from_start, int park_after_stock, int win_needs_empty_stock) nogil
    int salic_top(const SalicDeal *d, const SalicState *s, int q) nogil
    int salic_pile_size(const SalicDeal *d, const SalicState *s, int q) nogil
    int salic_grid_eval_check(const SalicDeal *d, const SalicState *s, uint64_t seed,
                              int stock) nogil
    int salic_grid_tight_check(const SalicDeal *d, const SalicState *s, uint64_t seed,
                               int stock) nogil
    int salic_room_dead(const SalicDeal *d, const SalicState *s, int deep, int whole,
                        int stock) nogil
    int salic_room_capped(const SalicDeal *d, const SalicState *s, int cap) nogil
    int salic_room_memo_check(const SalicDeal *d, const SalicState *s, int deep, int whole,
                              int reset, int stock) nogil
    int salic_room_witness_check(const SalicDeal *d, const SalicState *s, int reset,
                                 int stock) nogil
    int salic_memo_ways_check(const int *ops, int n, int *out) nogil
    int salic_memo_keep_check() nogil
    size_t salic_memo_release() nogil
    const GameOps SALIC_OPS

cdef extern from "banner.h":
    ctypedef struct BannerDeal:
        int reserve, cells, passes, talon
        uint8_t rank[104]
    ctypedef struct BannerState:
        uint64_t present[2]
        uint8_t p, passes, run, k
        uint8_t cell[8]
        uint8_t pad[4]
        uint8_t trace[16]
    int banner_setup(BannerDeal *d, BannerState *s, const uint8_t *cards, int ncards, int reserve,
                     int cells, int passes, int sixes_reserve) nogil
    int banner_waste_top(const BannerState *s) nogil
    int banner_stock_next(const BannerDeal *d, const BannerState *s) nogil
    int banner_needed(const BannerDeal *d, const BannerState *s) nogil
    int banner_prefix_check(const BannerDeal *d, const BannerState *s, int p) nogil
    int banner_trace_check(const BannerDeal *d, const BannerState *s) nogil
    int banner_dead_check(const BannerDeal *d, BannerState *s, unsigned prune, MoveCode via) nogil
    const GameOps BANNER_OPS
