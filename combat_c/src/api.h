/* Public API of the bgsim combat engine.
 *
 * This file is read both by the C compiler and by cffi's cdef, so it holds
 * only integer #defines, typedefs and prototypes.
 *
 * Boards come in with BASE stats: what the minion has with no aura applied.
 * The Python wrapper converts the displayed stats of a board spec to base
 * stats with bg_board_auras().
 */

#define BG_MAX_BOARD 7
#define BG_MAX_HAND_OUT 24
#define BG_DAMAGE_BINS 64
/* The game puts no limit on Magnetic attachments or Living Spores, but a
 * minion's deathrattles can fill at most the 7 slots: Microbots come three to
 * a Replicating Menace and Plants two to a Spore, so past the first four of
 * either the rest can summon nothing. The wrapper passes the first four. */
#define BG_MAX_MAGNETS 4
/* Secrets in play at once (Hearthstone's limit; one copy of each). */
#define BG_MAX_SECRETS 5

/* Keyword bits (minion.kw and card keywords). */
#define BG_KW_TAUNT 1
#define BG_KW_DIVINE_SHIELD 2
#define BG_KW_POISONOUS 4
#define BG_KW_WINDFURY 8
#define BG_KW_MEGA_WINDFURY 16
#define BG_KW_REBORN 32
#define BG_KW_DEATHRATTLE 64
#define BG_KW_MAGNETIC 128

/* Error codes returned by the entry points. */
#define BG_OK 0
#define BG_ERR_BOARD_SIZE -1
#define BG_ERR_CARD -2
#define BG_ERR_STATS -3
#define BG_ERR_TIER -4
#define BG_ERR_MAGNET -5
#define BG_ERR_RUNS -6
#define BG_ERR_LOG_FULL -7
#define BG_ERR_HERO -8

/* Event kinds written by bg_resolve. */
#define BG_EV_START 1      /* side = the side that makes the first attack (else the first to move) */
#define BG_EV_ATTACK 2     /* eid attacks target */
#define BG_EV_DAMAGE 3     /* target takes a damage, b = health after */
#define BG_EV_SHIELD 4     /* target loses Divine Shield */
#define BG_EV_DEATH 5      /* eid dies (removed from the board) */
#define BG_EV_SUMMON 6     /* eid summoned at slot: card, golden, kw, a/b = atk/hp */
#define BG_EV_STATS 7      /* eid's stats are now a/b (any buff or aura change) */
#define BG_EV_KEYWORDS 8   /* eid's keywords are now kw */
#define BG_EV_TRIGGER 9    /* eid's effect fires: card, a = trigger kind */
#define BG_EV_HAND 10      /* side gets card (golden) added to hand */
#define BG_EV_END 11       /* side = winner (-1 tie), a = damage */
#define BG_EV_POISON 12    /* target destroyed by Poisonous */
#define BG_EV_HERO 13      /* side's hero power acts: a = BG_HERO_*, eid = the minion it touches (0: none) */
#define BG_EV_SECRET 14    /* side's Secret is revealed: a = BG_SECRET_*, eid = the minion concerned */

/* Hero powers with a part in combat (bg_board_in.hero). Those marked
 * "armed" act only when the power was used for this combat (bg_board_in.armed). */
#define BG_HERO_NONE 0
#define BG_HERO_ALAKIR 1     /* Swatting Insects: Start of Combat, left-most minion gets Windfury, Divine Shield, Taunt */
#define BG_HERO_ILLIDAN 2    /* Wingmen: Start of Combat, left- and right-most minions attack */
#define BG_HERO_DEATHWING 3  /* ALL Will Burn!: every minion in the fight has +2 Attack */
#define BG_HERO_GREYBOUGH 4  /* Sprout It Out!: minions he summons get +1/+2 and Taunt */
#define BG_HERO_YSHAARJ 5    /* Embrace Your Rage (armed): Start of Combat, a minion of his tier, a copy to hand */
#define BG_HERO_RAFAAM 6     /* I'll Take That! (armed): the first enemy minion to die is copied (after the fight) */
#define BG_N_HERO_KINDS 7

/* Battlegrounds Secrets (bg_board_in.secret), in CardDefs order. */
#define BG_SECRET_VENOMSTRIKE_TRAP 1
#define BG_SECRET_SNAKE_TRAP 2
#define BG_SECRET_SPLITTING_IMAGE 3
#define BG_SECRET_EFFIGY 4
#define BG_SECRET_AUTODEFENSE_MATRIX 5
#define BG_SECRET_AVENGE 6
#define BG_SECRET_REDEMPTION 7
#define BG_SECRET_HAND_OF_SALVATION 8
#define BG_SECRET_ICE_BLOCK 9
#define BG_SECRET_COMPETITIVE_SPIRIT 10 /* acts at the start of a recruit turn: nothing in combat */
#define BG_N_SECRET_KINDS 11

/* Trigger kinds carried by BG_EV_TRIGGER.a */
#define BG_TR_DEATHRATTLE 1
#define BG_TR_START_OF_COMBAT 2
#define BG_TR_OVERKILL 3
#define BG_TR_FRENZY 4
#define BG_TR_REBORN 5
#define BG_TR_EFFECT 6

typedef struct {
    const char *id;
    const char *golden_id;
    const char *name;
    int tier;
    int tribes;
    int atk, hp;
    int gatk, ghp;
    int kw, gkw;
    int flags;
} bg_card_info;

typedef struct {
    uint16_t card;     /* index into the card table (normal version) */
    uint8_t golden;
    uint8_t kw;        /* current keywords (BG_KW_*) */
    int32_t atk, hp;   /* base stats, auras excluded */
    uint8_t n_magnets; /* magnetized Replicating Menaces (deathrattles), the first four */
    uint8_t magnet_golden[BG_MAX_MAGNETS];
    uint8_t spores;    /* Amalgadon's Living Spores adaptations, at most four */
} bg_minion_in;

typedef struct {
    int32_t tier;
    int32_t health;    /* hero health, for lethal odds */
    int32_t n;
    bg_minion_in m[BG_MAX_BOARD];
    uint8_t hero;      /* BG_HERO_*: what the side's hero power does in combat */
    uint8_t armed;     /* 1: the (activated) hero power fires in this combat */
    uint8_t n_secrets;
    uint8_t secret[BG_MAX_SECRETS]; /* BG_SECRET_*, in the order they came into play */
} bg_board_in;

typedef struct {
    int64_t runs, wins, ties, losses;
    int64_t damage_dealt[BG_DAMAGE_BINS];  /* damage to b's hero when a wins */
    int64_t damage_taken[BG_DAMAGE_BINS];  /* damage to a's hero when b wins */
    int64_t lethal_dealt, lethal_taken;
    int64_t sum_dealt, sum_taken;
} bg_odds;

typedef struct {
    int16_t index;     /* slot in the input board, -1 for none */
    int32_t atk, hp;   /* permanent gain */
} bg_permanent;

typedef struct {
    int32_t winner;    /* 0 = a, 1 = b, -1 = tie */
    int32_t damage;    /* to the loser's hero */
    int32_t n_events;
    int32_t truncated; /* 1 if the event buffer was too small */
    int32_t attacks;
    bg_permanent perm[2][BG_MAX_BOARD];
    int32_t n_hand[2];
    uint16_t hand[2][BG_MAX_HAND_OUT];
    uint8_t hand_golden[2][BG_MAX_HAND_OUT];
    int32_t survivors[2];
    int32_t kills[2];           /* enemy minions that died: kills[0] counts b's */
    uint16_t first_kill[2];     /* card of the first enemy minion to die (0xFFFF: none) */
    uint8_t first_kill_golden[2];
    uint8_t secrets_used[2];    /* bit k: the side's k-th Secret was revealed */
    int32_t prevented;          /* combat damage an Ice Block prevented */
} bg_result;

typedef struct {
    uint8_t kind;
    int8_t side;
    uint8_t slot;
    uint8_t golden;
    uint16_t eid;
    uint16_t target;
    uint16_t card;
    uint8_t kw;
    uint8_t extra;
    int32_t a, b;
} bg_event;

typedef struct {
    const char *id;
    const char *name;
    const char *power;  /* the hero's own hero power (card id) */
} bg_hero_info;

typedef struct {
    const char *id;
    const char *name;
} bg_named_card;

int bg_card_count(void);
int bg_hero_count(void);
const bg_hero_info *bg_hero(int index);
int bg_hero_power_count(void);
const bg_named_card *bg_hero_power(int index);
/* The Secret of code k (BG_SECRET_*), 1 <= k < BG_N_SECRET_KINDS. */
const bg_named_card *bg_secret(int code);
const bg_card_info *bg_card(int index);
uint32_t bg_card_hooks(int index);
int bg_check_board(const bg_board_in *board);
int bg_board_auras(const bg_board_in *board, int32_t *atk_bonus, int32_t *hp_bonus);
/* tribes: bit mask of the lobby's minion types (0 = all seven); random
 * summons (Sneed's, Ghastcoiler, Imp Mama, ...) pick only from those. */
int bg_simulate(const bg_board_in *a, const bg_board_in *b, int64_t runs, uint64_t seed,
                uint32_t tribes, bg_odds *out);
/* bg_simulate in parts: bg_stream_seed starts the generator of a seed, and
 * each bg_simulate_part adds its runs to *out (zeroed by the caller before
 * the first part) and leaves the generator where the next part goes on, so
 * parts of n1, n2, ... runs give exactly bg_simulate of n1 + n2 + ... runs.
 * The wrapper runs long simulations in parts to stay interruptible. */
typedef struct {
    uint64_t s[4];
    uint32_t ahead;
} bg_stream;
void bg_stream_seed(bg_stream *stream, uint64_t seed);
int bg_simulate_part(const bg_board_in *a, const bg_board_in *b, int64_t runs,
                     bg_stream *stream, uint32_t tribes, bg_odds *out);
int bg_resolve(const bg_board_in *a, const bg_board_in *b, uint64_t seed, uint32_t tribes,
               bg_result *out, bg_event *events, int32_t capacity);
