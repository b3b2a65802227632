/* Internal structures of the combat engine, shared by engine.c and cards.c. */
#ifndef BG_ENGINE_H
#define BG_ENGINE_H

#include <stdint.h>
#include <string.h>

#include "api.h"

/* Card table flags. */
#define CF_POOL 1
#define CF_SPELL 2
#define CF_LEGENDARY 4
#define CF_NO_GOLDEN 8

#include "card_table.h"

/* Tribe bits, in the order of data/cards.json "tribes". */
#define T_BEAST 1
#define T_DEMON 2
#define T_DRAGON 4
#define T_ELEMENTAL 8
#define T_MECH 16
#define T_MURLOC 32
#define T_PIRATE 64

#define STAT_MAX 1000000000
#define MAX_ATTACKS 400     /* a fight that runs longer ends in a tie */
#define MAX_STEPS 4000      /* summons plus deaths: guards freak chains */
#define MAX_PENDING 64
#define MAX_IMMEDIATE 32

/* Hook bits: which events a card reacts to. A side keeps the OR of its
 * minions' bits so most events cost one test when nobody listens. */
/* The low 16 bits are cached in each minion; H_CLEAVE and H_RULE above them
 * only describe cards (coverage test) and are checked by card id. */
#define H_DEATHRATTLE 0x0001
#define H_ON_SUMMON 0x0002
#define H_FRIEND_DEATH 0x0004
#define H_DAMAGED 0x0008
#define H_FRENZY 0x0010
#define H_ON_ATTACK 0x0020
#define H_ATTACKED 0x0040
#define H_SHIELD_LOST 0x0080
#define H_AFTER_ATTACK 0x0100
#define H_OVERKILL 0x0200
#define H_FRIEND_KILL 0x0400
#define H_START 0x0800
#define H_AURA 0x1000
#define H_AFTER_DEATH 0x2000
#define H_BARON 0x4000
#define H_KHADGAR 0x8000
#define H_CLEAVE 0x10000
#define H_RULE 0x20000 /* text handled by a rule in engine.c (Zapp, Yo-Ho-Ogre) */

typedef struct {
    int32_t atk, hp, max_hp;  /* as displayed: auras included */
    int16_t aura_atk, aura_hp;
    uint16_t card, eid;
    int8_t src;               /* slot in the input board, -1 if summoned */
    uint8_t golden, kw, tribes;
    uint8_t n_magnets;
    uint8_t magnet_golden;    /* bit k: the k-th magnetized Menace is golden */
    uint8_t spores;
    uint8_t frenzy_used;
    uint8_t attacked;         /* has attacked in this cycle of the attack order */
    uint16_t hooks;           /* the card's hook bits, kept at hand */
} Minion;

/* 256 bytes, so finding a side is a shift. */
typedef struct {
    Minion m[BG_MAX_BOARD];
    int32_t health;
    uint32_t hooks;           /* OR of the hook bits of minions on board */
    uint16_t last_attacker;   /* eid of the side's most recent attacker */
    uint16_t dead_mech[5];    /* Kangor's Apprentice remembers the first four Mechs */
    uint8_t n;
    uint8_t dead;             /* bit per slot: died, not yet taken off the board */
    uint8_t tier;
    uint8_t taunts;           /* minions with Taunt, dead ones included */
    uint8_t whelp_dragons;    /* friendly Dragons at the start of combat */
    uint8_t n_dead_mechs;
    uint8_t dead_mech_golden[5];
} Side;

/* Snapshot of a minion whose deathrattle (or death trigger) resolves: the
 * minion as it left the board, so taking one is a single copy. */
typedef Minion Source;

typedef struct {
    uint8_t kind;             /* PEND_* */
    int8_t side;
    uint16_t eid;
} Pending;

#define PEND_DAMAGED 1
#define PEND_FRENZY 2

typedef struct {
    uint64_t s[4];
    uint32_t ahead;           /* high half of the next output, drawn in advance */
} Rng;

/* A random pool filtered by random_pool_card. The filter depends only on its
 * arguments and the lobby's tribes, so bg_simulate keeps each one it builds
 * for all the fights of the call. */
typedef struct {
    const uint16_t *list;
    uint16_t exclude;
    int min_tier, max_tier, n;
    uint16_t card[BG_N_CARDS];
} Pool;

#define MAX_POOLS 8

typedef struct {
    int n;
    Pool pool[MAX_POOLS];
} PoolCache;

/* A side's hero in the fight: its hero power's combat part and its Secrets.
 * Kept beside the sides (a Side is 256 bytes, so finding one is a shift). */
typedef struct {
    uint8_t power;            /* BG_HERO_* */
    uint8_t armed;
    uint8_t n_secrets;
    uint8_t secret[BG_MAX_SECRETS]; /* BG_SECRET_*, in the order they came into play */
    uint8_t secrets_on;       /* bit k: secret[k] is still in play */
    uint8_t attacked_secrets; /* Secrets in play that react to an attack on a minion */
    uint8_t death_secrets;    /* Secrets in play that react to a friendly death */
    uint8_t deaths;           /* friendly minions that died so far (Hand of Salvation) */
    uint8_t greybough;        /* minions summoned on this side get +1/+2 and Taunt */
    uint8_t captured;         /* Rafaam: the first enemy death has been taken */
} Hero;

/* What a Fish of N'Zoth has gained: each deathrattle (a card's, a magnetized
 * Replicating Menace's, a Living Spore's: card C_PLANT) with how many times. */
#define MAX_FISH 8
#define FISH_DEATHRATTLES 16

typedef struct {
    uint16_t card;
    uint8_t golden;
    uint8_t times;
} Gained;

typedef struct {
    uint16_t eid;
    uint8_t n;
    Gained dr[FISH_DEATHRATTLES];
} FishMemory;

typedef struct Combat {
    Side s[2];
    Hero hero[2];
    Rng rng;
    int attacks, steps, aborted;
    uint16_t next_eid;
    uint8_t has_aura;
    uint8_t aura_stale;       /* a minion arrived since the last aura pass */
    uint8_t tribes;           /* the lobby's minion types: random summons stay in them */
    uint8_t spawn_attacked;   /* summons now in progress start with this attack flag */
    uint8_t aura_murlocs;     /* living Murlocs at the last aura pass */
    uint64_t aura_sources;    /* aura minions per side at the last aura pass */
    uint32_t moves;           /* bumped by every summon: slots may have shifted */
    int32_t dw;               /* Deathwing: Attack every minion in the fight has (2 per Deathwing) */
    int32_t hero_attacks;     /* attacks hero powers made (Illidan), not turns of the attack order */
    uint8_t heroes;           /* some hero power or Secret acts in this fight */
    uint8_t n_fish;           /* Fish of N'Zoth memories in use */
    int npend, nimm;
    PoolCache *pools;         /* NULL: filter every time (bg_resolve) */
    bg_result *res;           /* NULL in bg_simulate */
    bg_event *ev;
    int32_t ev_cap;
    /* The queues are empty between fights: bg_simulate copies a fight's
     * starting state only up to here. */
    Pending pend[MAX_PENDING];
    struct {
        int8_t side;
        uint16_t eid;
    } imm[MAX_IMMEDIATE];
    FishMemory fish[MAX_FISH]; /* the first n_fish are in use (n_fish starts each fight at 0) */
} Combat;

typedef struct {
    void (*deathrattle)(Combat *c, int side, const Source *src, uint16_t anchor);
    void (*on_summon)(Combat *c, int side, int self, int summoned);
    void (*friend_death)(Combat *c, int side, int self, const Source *dead, uint16_t anchor);
    void (*after_friend_death)(Combat *c, int side, int self, const Source *dead, uint16_t anchor);
    void (*damaged)(Combat *c, int side, int self);
    void (*frenzy)(Combat *c, int side, int self);
    void (*on_attack)(Combat *c, int side, int self, int attacker);
    void (*attacked)(Combat *c, int side, int self, int defender);
    void (*shield_lost)(Combat *c, int side, int self);
    void (*after_attack)(Combat *c, int side, int self, int killed, uint16_t target_eid,
                         int excess);
    void (*overkill)(Combat *c, int side, int self, int excess);
    void (*friend_kill)(Combat *c, int side, int self, int killer);
    void (*start_of_combat)(Combat *c, int side, int self);
    uint32_t hooks;
} CardHooks;

extern const CardHooks BG_HOOKS[BG_N_CARDS];

/* --- engine services used by card code (engine.c) --- */
uint32_t rng_below(Rng *r, uint32_t n);
int anchor_slot(const Side *s, uint16_t anchor);
uint16_t right_anchor(const Side *s, int slot);
int random_living(Combat *c, int side, int exclude_slot);
void buff(Combat *c, int side, int slot, int32_t atk, int32_t hp);
void buff_permanent(Combat *c, int side, int slot, int32_t atk, int32_t hp);
void give_keyword(Combat *c, int side, int slot, uint8_t kw);
int deal_damage(Combat *c, int tside, int tslot, int32_t amount, int sside, int sslot,
                int poisonous);
void flush_pending(Combat *c);
uint16_t summon(Combat *c, int side, int slot, uint16_t card, int golden, int32_t atk,
                int32_t hp, uint8_t kw, int8_t src);
int summon_minion(Combat *c, int side, uint16_t anchor, uint16_t card, int golden, int32_t atk,
                  int32_t hp, uint8_t kw, uint16_t *eids, int max_eids);
int summon_card(Combat *c, int side, uint16_t anchor, uint16_t card, int golden, uint8_t add_kw,
                uint16_t *eids, int max_eids);
void wound(Combat *c, int side, const uint16_t *eids, int n, int32_t missing);
void add_to_hand(Combat *c, int side, uint16_t card, int golden);
void queue_immediate_attack(Combat *c, int side, uint16_t eid);
void run_deathrattles(Combat *c, int side, const Source *src, uint16_t anchor);
void source_of(const Minion *m, Source *out);
uint16_t random_pool_card(Combat *c, const uint16_t *list, int n, uint16_t exclude, int max_tier);
uint8_t spawn_flag(const Side *s, uint8_t attacked, uint16_t eid);
void log_event(Combat *c, int kind, int side, int slot, uint16_t eid, uint16_t target,
               uint16_t card, int golden, int kw, int32_t a, int32_t b);
void log_stats(Combat *c, int side, int slot);
uint16_t random_pool_tier(Combat *c, int tier);
void hero_attack(Combat *c, int side, uint16_t eid);
void set_first_mover(Combat *c, int side);

/* --- heroes.c: hero powers and Secrets in combat --- */
void hero_entering(Combat *c, int side, int slot);
void hero_summoned(Combat *c, int side, int slot);
void hero_attacked(Combat *c, int side, int defender);
void hero_friend_died(Combat *c, int side, const Source *dead, uint16_t anchor);
void hero_kill(Combat *c, int side, const Minion *dead);
int hero_start_of_combat(Combat *c, int side, int first);
int hero_damage(Combat *c, int side, int damage);
void hero_load(Combat *c, int side, const bg_board_in *b);
void fish_gain(Combat *c, int side, int self, const Source *dead);
void fish_deathrattles(Combat *c, int side, const Source *src, uint16_t anchor);

static inline int golden_mult(const Minion *m) { return m->golden ? 2 : 1; }
/* Poisonous sets Health to 0, so a minion awaiting death has Health <= 0. */
static inline int is_dead(const Minion *m) { return m->hp <= 0; }
static inline int slot_of(const Side *s, uint16_t eid) {
    for (int i = 0; i < s->n; i++)
        if (s->m[i].eid == eid) return i;
    return -1;
}
#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define NOINLINE
#define ALWAYS_INLINE inline
#endif

static inline int card_has(uint16_t card, uint32_t hook) { return (BG_HOOKS[card].hooks & hook) != 0; }
#define HOOKS16(card) ((uint16_t)(BG_HOOKS[card].hooks & 0xFFFF))

#endif
