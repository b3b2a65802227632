/* The rules of a Battlegrounds fight (patch 20.0): attack order, targets,
 * damage and keywords, deaths and deathrattles, summons, auras, and the end.
 * Card texts live in cards.c and are reached through BG_HOOKS. */
#include <stddef.h>

#include "engine.h"

/* ------------------------------------------------------------------ RNG */

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r) { /* xoshiro256** */
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

static void rng_seed(Rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    r->ahead = (uint32_t)(rng_next(r) >> 32);
}

/* Uniform in [0, n). The output is drawn one step ahead: what gets picked
 * with it (a target, a slot) waits on this value, not on the generator. */
uint32_t rng_below(Rng *r, uint32_t n) {
    uint32_t x = r->ahead;
    r->ahead = (uint32_t)(rng_next(r) >> 32);
    return (uint32_t)(((uint64_t)x * n) >> 32);
}

/* ------------------------------------------------------------- logging */

void log_event(Combat *c, int kind, int side, int slot, uint16_t eid, uint16_t target,
               uint16_t card, int golden, int kw, int32_t a, int32_t b) {
    bg_result *res = c->res;
    if (!c->ev) return;
    if (res->n_events >= c->ev_cap) {
        res->truncated = 1;
        return;
    }
    bg_event *e = &c->ev[res->n_events++];
    e->kind = (uint8_t)kind;
    e->side = (int8_t)side;
    e->slot = (uint8_t)(slot < 0 ? 255 : slot);
    e->eid = eid;
    e->target = target;
    e->card = card;
    e->golden = (uint8_t)golden;
    e->kw = (uint8_t)kw;
    e->extra = 0;
    e->a = a;
    e->b = b;
}

void log_stats(Combat *c, int side, int slot) {
    if (!c->ev) return;
    const Minion *m = &c->s[side].m[slot];
    log_event(c, BG_EV_STATS, side, slot, m->eid, 0, m->card, m->golden, m->kw, m->atk, m->hp);
}

/* ------------------------------------------------------------ lookups */

static inline int lowest_bit(unsigned mask) {
#if defined(__GNUC__)
    return __builtin_ctz(mask);
#else
    int i = 0;
    while (!(mask & 1u)) mask >>= 1, i++;
    return i;
#endif
}

/* Summons for a minion that left the board go before its right neighbour
 * (the anchor) or at the end when it had none. */
int anchor_slot(const Side *s, uint16_t anchor) {
    if (anchor) {
        int i = slot_of(s, anchor);
        if (i >= 0) return i;
    }
    return s->n;
}

uint16_t right_anchor(const Side *s, int slot) {
    return slot + 1 < s->n ? s->m[slot + 1].eid : 0;
}

int random_living(Combat *c, int side, int exclude_slot) {
    const Side *s = &c->s[side];
    if (exclude_slot < 0 && !s->dead) return s->n ? (int)rng_below(&c->rng, s->n) : -1;
    int pick[BG_MAX_BOARD], k = 0;
    for (int i = 0; i < s->n; i++)
        if (i != exclude_slot && !is_dead(&s->m[i])) pick[k++] = i;
    return k ? pick[rng_below(&c->rng, (uint32_t)k)] : -1;
}

static int filter_pool(const Combat *c, const uint16_t *list, int n, uint16_t exclude,
                       int min_tier, int max_tier, uint16_t *ok) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        const bg_card_info *info = &BG_CARDS[list[i]];
        if (list[i] == exclude || info->tier > max_tier || info->tier < min_tier) continue;
        if (info->tribes && c->tribes && !(info->tribes & c->tribes)) continue;
        ok[k++] = list[i];
    }
    return k;
}

/* A random pool minion from `list` (not `exclude`, tier in min..max) whose
 * type is in the lobby; neutral minions always qualify. */
static uint16_t random_pool_range(Combat *c, const uint16_t *list, int n, uint16_t exclude,
                                  int min_tier, int max_tier) {
    const uint16_t *ok = NULL;
    uint16_t scratch[BG_N_CARDS];
    int k = 0;
    PoolCache *cache = c->pools;
    for (int j = 0; cache && j < cache->n && !ok; j++) {
        const Pool *p = &cache->pool[j];
        if (p->list == list && p->exclude == exclude && p->max_tier == max_tier &&
            p->min_tier == min_tier)
            ok = p->card, k = p->n;
    }
    if (!ok && cache && cache->n < MAX_POOLS) {
        Pool *p = &cache->pool[cache->n++];
        p->list = list;
        p->exclude = exclude;
        p->min_tier = min_tier;
        p->max_tier = max_tier;
        p->n = k = filter_pool(c, list, n, exclude, min_tier, max_tier, p->card);
        ok = p->card;
    } else if (!ok) {
        k = filter_pool(c, list, n, exclude, min_tier, max_tier, scratch);
        ok = scratch;
    }
    if (!k) return 0xFFFF;
    return ok[rng_below(&c->rng, (uint32_t)k)];
}

uint16_t random_pool_card(Combat *c, const uint16_t *list, int n, uint16_t exclude, int max_tier) {
    return random_pool_range(c, list, n, exclude, 0, max_tier);
}

/* A random pool minion of exactly this tier (Y'Shaarj, Effigy). */
uint16_t random_pool_tier(Combat *c, int tier) {
    return random_pool_range(c, BG_POOL_ALL, BG_POOL_ALL_N, 0xFFFF, tier, tier);
}

/* Attack-order flag for minions summoned by a minion (Reborn, deathrattle,
 * damage triggers): they wait for the next cycle only if their source
 * attacked this cycle and was not the side's latest attacker. */
uint8_t spawn_flag(const Side *s, uint8_t attacked, uint16_t eid) {
    return attacked && eid != s->last_attacker;
}

/* Baron Rivendare: deathrattles trigger twice, three times with a golden one;
 * several Barons do not stack. */
static int baron_times(const Side *s) {
    int best = 1;
    if (!(s->hooks & H_BARON)) return 1;
    for (int i = 0; i < s->n; i++) {
        const Minion *m = &s->m[i];
        if (m->card == C_BARON_RIVENDARE && !is_dead(m)) best = m->golden ? 3 : (best > 2 ? best : 2);
    }
    return best;
}

/* Khadgar: summons happen twice (three times for a golden one); several
 * Khadgars multiply. */
static int khadgar_times(const Side *s) {
    int times = 1;
    if (!(s->hooks & H_KHADGAR)) return 1;
    for (int i = 0; i < s->n && times < BG_MAX_BOARD; i++) {
        const Minion *m = &s->m[i];
        if (m->card == C_KHADGAR && !is_dead(m)) times *= m->golden ? 3 : 2;
    }
    return times;
}

/* --------------------------------------------------------------- stats */

static int32_t clamp_stat(int64_t v) {
    return v > STAT_MAX ? STAT_MAX : (v < -STAT_MAX ? -STAT_MAX : (int32_t)v);
}

void buff(Combat *c, int side, int slot, int32_t atk, int32_t hp) {
    Minion *m = &c->s[side].m[slot];
    if (is_dead(m)) return;
    m->atk = clamp_stat((int64_t)m->atk + atk);
    if (m->atk < 0) m->atk = 0;
    m->hp = clamp_stat((int64_t)m->hp + hp);
    m->max_hp = clamp_stat((int64_t)m->max_hp + hp);
    log_stats(c, side, slot);
}

void buff_permanent(Combat *c, int side, int slot, int32_t atk, int32_t hp) {
    Minion *m = &c->s[side].m[slot];
    if (is_dead(m)) return;
    buff(c, side, slot, atk, hp);
    if (c->res && m->src >= 0) {
        bg_permanent *p = &c->res->perm[side][m->src];
        p->index = m->src;
        p->atk = clamp_stat((int64_t)p->atk + atk);
        p->hp = clamp_stat((int64_t)p->hp + hp);
    }
}

void give_keyword(Combat *c, int side, int slot, uint8_t kw) {
    Minion *m = &c->s[side].m[slot];
    if (is_dead(m) || (m->kw & kw) == kw) return;
    c->s[side].taunts += (uint8_t)((kw & ~m->kw & BG_KW_TAUNT) != 0);
    m->kw |= kw;
    if (c->ev) log_event(c, BG_EV_KEYWORDS, side, slot, m->eid, 0, m->card, m->golden, m->kw, 0, 0);
}

/* -------------------------------------------------------------- auras */

static int is_tribe(const Minion *m, int t) { return (m->tribes & t) != 0; }

/* What every aura depends on: each side's living aura minions (Warleaders,
 * Southsea Captains, Siegebreakers, Mal'Ganis, golden ones counted twice) and
 * the living Murlocs on the battlefield (Old Murk-Eye). */
typedef struct {
    int lead[2], cap[2], siege[2], mal[2];
    int murlocs;
} AuraSources;

static void count_aura_sources(const Combat *c, AuraSources *a) {
    memset(a, 0, sizeof *a);
    for (int s = 0; s < 2; s++) {
        const Side *sd = &c->s[s];
        for (int i = 0; i < sd->n; i++) {
            const Minion *m = &sd->m[i];
            if (is_dead(m)) continue;
            a->murlocs += is_tribe(m, T_MURLOC);
            int g = golden_mult(m);
            switch (m->card) {
            case C_MURLOC_WARLEADER: a->lead[s] += 2 * g; break;
            case C_SOUTHSEA_CAPTAIN: a->cap[s] += g; break;
            case C_SIEGEBREAKER: a->siege[s] += g; break;
            case C_MAL_GANIS: a->mal[s] += 2 * g; break;
            default: break;
            }
        }
    }
}

static uint64_t pack_sources(const AuraSources *a) {
    uint64_t key = 0;
    for (int s = 0; s < 2; s++)
        key |= (uint64_t)((uint32_t)a->lead[s] | (uint32_t)a->cap[s] << 8 |
                          (uint32_t)a->siege[s] << 16 | (uint32_t)a->mal[s] << 24) << (32 * s);
    return key;
}

/* Recompute every aura. A lost Health aura lowers maximum Health but never
 * the Health of a damaged minion below 1. Old Murk-Eye's count of Murlocs on
 * the battlefield is left out when `murk_eye` is 0 (board specs). */
static void apply_auras(Combat *c, const AuraSources *a, int murk_eye) {
    for (int s = 0; s < 2; s++) {
        Side *sd = &c->s[s];
        int lead = a->lead[s], cap = a->cap[s], siege = a->siege[s], mal = a->mal[s];
        for (int i = 0; i < sd->n; i++) {
            Minion *m = &sd->m[i];
            int g = golden_mult(m);
            int32_t aa = c->dw, ah = 0; /* Deathwing's +2 for every minion */
            if (is_tribe(m, T_MURLOC)) aa += lead - (m->card == C_MURLOC_WARLEADER ? 2 * g : 0);
            if (is_tribe(m, T_PIRATE)) {
                int own = m->card == C_SOUTHSEA_CAPTAIN ? g : 0;
                aa += cap - own;
                ah += cap - own;
            }
            if (is_tribe(m, T_DEMON)) {
                aa += siege - (m->card == C_SIEGEBREAKER ? g : 0);
                int own = m->card == C_MAL_GANIS ? 2 * g : 0;
                aa += mal - own;
                ah += mal - own;
            }
            if (m->card == C_OLD_MURK_EYE && murk_eye) aa += g * (a->murlocs - (is_dead(m) ? 0 : 1));
            if (aa == m->aura_atk && ah == m->aura_hp) continue;
            int was_dead = is_dead(m);
            m->atk += aa - m->aura_atk;
            if (m->atk < 0) m->atk = 0;
            int32_t dh = ah - m->aura_hp;
            m->max_hp += dh;
            if (dh > 0)
                m->hp += dh;
            else if (m->hp > m->max_hp)
                m->hp = m->max_hp;
            if (was_dead && m->hp > 0) m->hp = 0;
            m->aura_atk = (int16_t)aa;
            m->aura_hp = (int16_t)ah;
            log_stats(c, s, i);
        }
    }
}

/* A minion's aura bonus depends only on its own card and the aura sources
 * (Old Murk-Eye's also on whether it is dead, but it is a Murloc itself, so
 * that changes the count too). When the sources are those of the last pass
 * and no minion has arrived since, a new pass would change nothing. */
static NOINLINE void refresh_auras(Combat *c) {
    AuraSources a;
    count_aura_sources(c, &a);
    uint64_t key = pack_sources(&a);
    if (!c->aura_stale && key == c->aura_sources && a.murlocs == c->aura_murlocs) return;
    apply_auras(c, &a, 1);
    c->aura_sources = key;
    c->aura_murlocs = (uint8_t)a.murlocs;
    c->aura_stale = 0;
}

static inline void update_auras(Combat *c) {
    if (c->has_aura) refresh_auras(c);
}

/* ------------------------------------------------------ board changes */

/* Summon one minion at slot (the summons of card effects go through
 * summon_copies, which inlines this; summon() is the same out of line). */
static ALWAYS_INLINE uint16_t summon_at(Combat *c, int side, int slot, uint16_t card, int golden,
                                        int32_t atk, int32_t hp, uint8_t kw, int8_t src) {
    Side *s = &c->s[side];
    if (s->n >= BG_MAX_BOARD || c->aborted) return 0;
    if (++c->steps > MAX_STEPS) {
        c->aborted = 1;
        return 0;
    }
    if (slot < 0) slot = 0;
    if (slot > s->n) slot = s->n;
    /* Make room at slot over the whole array, without a branch on where:
     * each slot right of it takes its left neighbour (past the board that
     * moves stale copies around, which is harmless). */
    for (int i = BG_MAX_BOARD - 1; i > 0; i--) s->m[i] = s->m[i > slot ? i - 1 : i];
    unsigned left = (1u << slot) - 1;
    s->dead = (uint8_t)((s->dead & left) | (s->dead & ~left) << 1);
    s->n++;
    s->taunts += (uint8_t)((kw & BG_KW_TAUNT) != 0);
    c->moves++;
    Minion *m = &s->m[slot];
    uint16_t hooks = HOOKS16(card);
    *m = (Minion){.atk = atk,
                  .hp = hp,
                  .max_hp = hp,
                  .card = card,
                  .eid = ++c->next_eid,
                  .src = src,
                  .golden = (uint8_t)golden,
                  .kw = kw,
                  .tribes = (uint8_t)BG_CARDS[card].tribes,
                  .attacked = c->spawn_attacked,
                  .hooks = hooks};
    s->hooks |= hooks;
    if (hooks & H_AURA) c->has_aura = 1;
    /* A minion that is no aura source and takes no aura changes no aura. */
    if ((hooks & H_AURA) || (m->tribes & (T_MURLOC | T_PIRATE | T_DEMON))) c->aura_stale = 1;
    /* Heroes (heroes.c, out of line: fights without them only test the
     * flag): Deathwing's Attack as the minion enters, Greybough's buff once
     * it is shown. */
    if (UNLIKELY(c->heroes)) hero_entering(c, side, slot);
    if (c->ev)
        log_event(c, BG_EV_SUMMON, side, slot, m->eid, 0, card, golden, kw, m->atk, hp);
    uint16_t eid = m->eid;
    if (UNLIKELY(c->heroes)) hero_summoned(c, side, slot);
    if (s->hooks & H_ON_SUMMON) {
        for (int i = 0; i < s->n; i++) {
            const Minion *w = &s->m[i];
            if (i != slot && (w->hooks & H_ON_SUMMON) && !is_dead(w))
                BG_HOOKS[w->card].on_summon(c, side, i, slot);
        }
    }
    update_auras(c);
    return eid;
}

uint16_t summon(Combat *c, int side, int slot, uint16_t card, int golden, int32_t atk,
                int32_t hp, uint8_t kw, int8_t src) {
    return summon_at(c, side, slot, card, golden, atk, hp, kw, src);
}

/* Summon for a card effect: Khadgar adds copies of the summoned minion as it
 * stands after its "when summoned" buffs, which then apply to each copy too.
 * Returns how many were summoned; their eids go to eids[] when given. */
static int summon_copies(Combat *c, int side, uint16_t anchor, uint16_t card, int golden,
                         int32_t atk, int32_t hp, uint8_t kw, int8_t src, uint16_t *eids,
                         int max_eids) {
    Side *s = &c->s[side];
    if (s->n >= BG_MAX_BOARD) return 0; /* summon() would refuse every copy */
    int copies = khadgar_times(s);
    int made = 0;
    for (int k = 0; k < copies; k++) {
        uint16_t eid = summon_at(c, side, anchor_slot(s, anchor), card, golden, atk, hp, kw, src);
        if (!eid) break;
        if (eids && made < max_eids) eids[made] = eid;
        made++;
        if (k == 0 && copies > 1) {
            const Minion *m = &s->m[slot_of(s, eid)];
            atk = m->atk - m->aura_atk;
            hp = m->max_hp - m->aura_hp;
            kw = m->kw;
            src = -1;
        }
    }
    return made;
}

/* Minions summoned "with 1 Health" (Reborn, Redemption) are damaged, not
 * smaller: their maximum Health stays the card's, so losing a Health aura
 * later trims nothing below it. Raise the maximum of each summoned minion
 * (eids) by the Health it came back without. */
void wound(Combat *c, int side, const uint16_t *eids, int n, int32_t missing) {
    if (missing <= 0) return;
    Side *s = &c->s[side];
    for (int j = 0; j < n; j++) {
        int at = slot_of(s, eids[j]);
        if (at >= 0) s->m[at].max_hp += missing;
    }
}

/* Summon with the stats and keywords given (Khadgar multiplies it too). */
int summon_minion(Combat *c, int side, uint16_t anchor, uint16_t card, int golden, int32_t atk,
                  int32_t hp, uint8_t kw, uint16_t *eids, int max_eids) {
    return summon_copies(c, side, anchor, card, golden, atk, hp, kw, -1, eids, max_eids);
}

int summon_card(Combat *c, int side, uint16_t anchor, uint16_t card, int golden, uint8_t add_kw,
                uint16_t *eids, int max_eids) {
    if (card >= BG_N_CARDS) return 0;
    const bg_card_info *info = &BG_CARDS[card];
    uint8_t kw = (uint8_t)((golden ? info->gkw : info->kw) | add_kw);
    return summon_copies(c, side, anchor, card, golden, golden ? info->gatk : info->atk,
                         golden ? info->ghp : info->hp, kw, -1, eids, max_eids);
}

void add_to_hand(Combat *c, int side, uint16_t card, int golden) {
    bg_result *r = c->res;
    if (!r || card >= BG_N_CARDS) return;
    if (r->n_hand[side] < BG_MAX_HAND_OUT) {
        r->hand[side][r->n_hand[side]] = card;
        r->hand_golden[side][r->n_hand[side]] = (uint8_t)golden;
        r->n_hand[side]++;
    }
    log_event(c, BG_EV_HAND, side, -1, 0, 0, card, golden, 0, 0, 0);
}

void queue_immediate_attack(Combat *c, int side, uint16_t eid) {
    if (c->nimm < MAX_IMMEDIATE) {
        c->imm[c->nimm].side = (int8_t)side;
        c->imm[c->nimm].eid = eid;
        c->nimm++;
    }
}

/* ------------------------------------------------------------- damage */

static void pend(Combat *c, int kind, int side, uint16_t eid) {
    if (c->npend < MAX_PENDING) {
        c->pend[c->npend].kind = (uint8_t)kind;
        c->pend[c->npend].side = (int8_t)side;
        c->pend[c->npend].eid = eid;
        c->npend++;
    }
}

static void shield_lost(Combat *c, int side) {
    Side *s = &c->s[side];
    if (!(s->hooks & H_SHIELD_LOST)) return;
    for (int i = 0; i < s->n; i++)
        if ((s->m[i].hooks & H_SHIELD_LOST) && !is_dead(&s->m[i]))
            BG_HOOKS[s->m[i].card].shield_lost(c, side, i);
}

/* The rarer outcomes of a hit, kept out of the inline path. */
static NOINLINE int break_shield(Combat *c, int tside, int tslot) {
    Minion *t = &c->s[tside].m[tslot];
    t->kw &= (uint8_t)~BG_KW_DIVINE_SHIELD;
    if (c->ev) log_event(c, BG_EV_SHIELD, tside, tslot, t->eid, 0, t->card, t->golden, t->kw, 0, 0);
    shield_lost(c, tside);
    return 0;
}

static NOINLINE void poison(Combat *c, int tside, int tslot) {
    Minion *t = &c->s[tside].m[tslot];
    t->hp = 0;
    if (c->ev) log_event(c, BG_EV_POISON, tside, tslot, t->eid, 0, t->card, t->golden, t->kw, 0, 0);
}

static NOINLINE void damage_triggers(Combat *c, int tside, int tslot, int sside, int sslot) {
    Minion *t = &c->s[tside].m[tslot];
    uint16_t hooks = t->hooks;
    if (hooks & H_DAMAGED) pend(c, PEND_DAMAGED, tside, t->eid);
    if ((hooks & H_FRENZY) && !t->frenzy_used && !is_dead(t)) {
        t->frenzy_used = 1;
        pend(c, PEND_FRENZY, tside, t->eid);
    }
    if (sslot >= 0 && is_dead(t)) {
        Side *ss = &c->s[sside];
        if ((ss->hooks & H_FRIEND_KILL) && (ss->m[sslot].tribes & T_DRAGON)) {
            uint16_t killer = ss->m[sslot].eid;
            for (int i = 0; i < ss->n; i++)
                if ((ss->m[i].hooks & H_FRIEND_KILL) && !is_dead(&ss->m[i]))
                    BG_HOOKS[ss->m[i].card].friend_kill(c, sside, i, slot_of(ss, killer));
        }
    }
}

/* Deal damage from a minion (sslot >= 0) or an effect. Returns the damage
 * dealt (0 when a Divine Shield absorbed it). An attack's own hit always
 * inlines (hit_inline); other callers leave it to the compiler (hit). */
static ALWAYS_INLINE int hit_inline(Combat *c, int tside, int tslot, int32_t amount, int sside,
                                    int sslot, int poisonous) {
    Minion *t = &c->s[tside].m[tslot];
    if (amount <= 0 || is_dead(t)) return 0;
    if (t->kw & BG_KW_DIVINE_SHIELD) return break_shield(c, tside, tslot);
    t->hp -= amount;
    if (UNLIKELY(c->ev != NULL))
        log_event(c, BG_EV_DAMAGE, tside, tslot, t->eid, 0, t->card, t->golden, t->kw, amount, t->hp);
    if (UNLIKELY(poisonous) && t->hp > 0) poison(c, tside, tslot);
    int dead = t->hp <= 0;
    c->s[tside].dead |= (uint8_t)(dead << tslot);
    /* No branch on whether the target died (that is random) until the one
     * that asks whether anything reacts at all. */
    int kill_hook = dead & (sslot >= 0) & ((c->s[sside].hooks & H_FRIEND_KILL) != 0);
    if (UNLIKELY((t->hooks & (H_DAMAGED | H_FRENZY)) | kill_hook))
        damage_triggers(c, tside, tslot, sside, sslot);
    return amount;
}

static inline int hit(Combat *c, int tside, int tslot, int32_t amount, int sside, int sslot,
                      int poisonous) {
    return hit_inline(c, tside, tslot, amount, sside, sslot, poisonous);
}

int deal_damage(Combat *c, int tside, int tslot, int32_t amount, int sside, int sslot,
                int poisonous) {
    return hit(c, tside, tslot, amount, sside, sslot, poisonous);
}

/* Damage and death triggers wait in queues; most of the time they are empty. */
static inline void flush(Combat *c) {
    if (c->npend) flush_pending(c);
}

void flush_pending(Combat *c) {
    for (int k = 0; k < c->npend; k++) {
        Pending p = c->pend[k];
        Side *s = &c->s[p.side];
        int i = slot_of(s, p.eid);
        if (i < 0) continue;
        Minion *m = &s->m[i];
        const CardHooks *h = &BG_HOOKS[m->card];
        if (p.kind == PEND_DAMAGED && h->damaged) {
            uint8_t saved = c->spawn_attacked;
            c->spawn_attacked = spawn_flag(s, m->attacked, m->eid);
            h->damaged(c, p.side, i);
            c->spawn_attacked = saved;
        }
        if (p.kind == PEND_FRENZY && h->frenzy && !is_dead(m)) {
            if (c->ev) log_event(c, BG_EV_TRIGGER, p.side, i, p.eid, 0, m->card, m->golden, 0, BG_TR_FRENZY, 0);
            h->frenzy(c, p.side, i);
        }
    }
    c->npend = 0;
}

/* ------------------------------------------------------ deathrattles */

void source_of(const Minion *m, Source *out) { *out = *m; }

/* The minion's own deathrattle, then magnetized Replicating Menaces, then
 * Amalgadon's Living Spores; all of it again for Baron Rivendare. */
void run_deathrattles(Combat *c, int side, const Source *src, uint16_t anchor) {
    Side *s = &c->s[side];
    const CardHooks *h = &BG_HOOKS[src->card];
    uint8_t saved = c->spawn_attacked;
    c->spawn_attacked = spawn_flag(s, src->attacked, src->eid);
    int times = baron_times(s);
    for (int t = 0; t < times; t++) {
        if (h->deathrattle) {
            if (c->ev) log_event(c, BG_EV_TRIGGER, side, -1, src->eid, 0, src->card, src->golden, 0, BG_TR_DEATHRATTLE, 0);
            h->deathrattle(c, side, src, anchor);
        }
        for (int k = 0; k < src->n_magnets; k++) {
            Source menace = *src;
            menace.card = C_REPLICATING_MENACE;
            menace.golden = (src->magnet_golden >> k) & 1;
            if (c->ev) log_event(c, BG_EV_TRIGGER, side, -1, src->eid, 0, C_REPLICATING_MENACE, menace.golden, 0, BG_TR_DEATHRATTLE, 0);
            BG_HOOKS[C_REPLICATING_MENACE].deathrattle(c, side, &menace, anchor);
        }
        for (int k = 0; k < src->spores; k++) {
            if (c->ev) log_event(c, BG_EV_TRIGGER, side, -1, src->eid, 0, C_PLANT, 0, 0, BG_TR_DEATHRATTLE, 0);
            summon_card(c, side, anchor, C_PLANT, 0, 0, NULL, 0);
            summon_card(c, side, anchor, C_PLANT, 0, 0, NULL, 0);
        }
        flush(c);
    }
    c->spawn_attacked = saved;
}

typedef struct {
    Source src;
    uint16_t anchor;  /* eid of the surviving right neighbour, 0 for none */
} Death;

/* Slots from `from` on whose minions have a hook in `want`. */
static inline unsigned listeners(const Side *s, uint16_t want, int from) {
    unsigned mask = 0;
    for (int i = from; i < s->n; i++) mask |= (unsigned)((s->m[i].hooks & want) != 0) << i;
    return mask;
}

/* Call the friend_death or after_friend_death hook of every living minion of
 * `side` for one dead friend, left to right. Where the listeners stand varies
 * from death to death, so they are found as a mask rather than by branching
 * on each minion. */
static void friend_died(Combat *c, int side, const Death *d, int after) {
    Side *s = &c->s[side];
    uint16_t want = after ? H_AFTER_DEATH : H_FRIEND_DEATH;
    if (!(s->hooks & want)) return;
    unsigned todo = listeners(s, want, 0);
    while (todo) {
        int i = lowest_bit(todo);
        todo &= todo - 1;
        if (is_dead(&s->m[i])) continue;
        const CardHooks *h = &BG_HOOKS[s->m[i].card];
        uint16_t self = s->m[i].eid;
        uint32_t moves = c->moves;
        (after ? h->after_friend_death : h->friend_death)(c, side, i, &d->src, d->anchor);
        if (c->moves != moves) /* a summon shifted the board: go on right of this minion */
            todo = listeners(s, want, slot_of(s, self) + 1);
    }
    flush(c);
}

/* Snapshot the dead minion at slot i, which summons will follow at anchor. */
static inline void record_death(Combat *c, int side, int i, uint16_t anchor, Death *d,
                                unsigned *work, unsigned *reborn) {
    Side *s = &c->s[side];
    const Minion *m = &s->m[i];
    d->src = *m;
    d->anchor = anchor;
    *work |= (m->hooks & H_DEATHRATTLE) | m->n_magnets | m->spores;
    *reborn |= m->kw & BG_KW_REBORN;
    s->taunts -= (uint8_t)((m->kw & BG_KW_TAUNT) != 0);
    if (c->res) { /* resolve: the log, and the enemy's kills for the result */
        if (c->ev) log_event(c, BG_EV_DEATH, side, i, m->eid, 0, m->card, m->golden, m->kw, 0, 0);
        hero_kill(c, !side, m);
    }
    /* Kangor's Apprentice remembers the first four Mechs (a fifth slot takes
     * the writes once full, so no branch). */
    int nm = s->n_dead_mechs;
    s->dead_mech[nm] = m->card;
    s->dead_mech_golden[nm] = m->golden;
    s->n_dead_mechs = (uint8_t)(nm + ((m->tribes & T_MECH) && nm < 4));
}

/* Take a side's dead minions off the board, left to right, each with the eid
 * of its nearest surviving right neighbour (its summons go before it; 0 for
 * the end of the board). Returns how many died; *work collects whether any
 * has a deathrattle, *reborn whether any has Reborn. */
static inline int remove_dead(Combat *c, int side, Death *out, unsigned *work, unsigned *reborn) {
    Side *s = &c->s[side];
    /* Only deal_damage kills, and it marks the slot; summons shift the marks
     * along with the minions. */
    unsigned dead = s->dead;
    if (!dead) return 0;
    s->dead = 0;
    int n = s->n;
    /* The copies below run over all seven slots, without a branch on which
     * minions died (that is random); slots past the board are stale but
     * initialised, and whatever lands there is past the new end. */
    if (!(dead & (dead - 1))) {
        /* The usual case, one death: the minions right of it move down. */
        int i = lowest_bit(dead);
        record_death(c, side, i, i + 1 < n ? s->m[i + 1].eid : 0, out, work, reborn);
        for (int j = 0; j < BG_MAX_BOARD - 1; j++) s->m[j] = s->m[j + (j >= i)];
        s->n = (uint8_t)(n - 1);
        return 1;
    }
    int nd = 0;
    unsigned survivors = ~dead & ((1u << n) - 1);
    for (unsigned left = dead; left; left &= left - 1) {
        int i = lowest_bit(left);
        /* The bit above the board stands in for "none" so the lookup stays
         * in bounds; the eid it reads is then discarded. */
        unsigned right = survivors >> i;
        uint16_t eid = s->m[lowest_bit(right | 1u << (BG_MAX_BOARD - 1 - i)) + i].eid;
        record_death(c, side, i, right ? eid : 0, &out[nd++], work, reborn);
    }
    /* Each slot is copied down to the next free place, which only moves on
     * past survivors. */
    Minion *to = s->m;
    for (int i = 0; i < BG_MAX_BOARD; i++) {
        *to = s->m[i];
        to += survivors >> i & 1;
    }
    s->n = (uint8_t)(to - s->m);
    return nd;
}

/* Take every dead minion off the board, then resolve deaths side by side
 * (a coin flip decides which side goes first), each side's dead left to
 * right: "whenever a friendly minion dies" triggers, its deathrattles, then
 * "after a friendly minion dies" triggers. Reborn comes last. Repeats while
 * deathrattles kill more. */
static NOINLINE void process_deaths(Combat *c) {
    while (c->s[0].dead | c->s[1].dead) {
        /* Side 0's dead, then side 1's. */
        Death dead[2 * BG_MAX_BOARD];
        unsigned work = 0, reborn = 0;
        int nd0 = remove_dead(c, 0, dead, &work, &reborn);
        int total = nd0 + remove_dead(c, 1, dead + nd0, &work, &reborn);
        if (!total) return;
        c->steps += total;
        if (c->steps > MAX_STEPS) {
            c->aborted = 1;
            return;
        }
        /* Side hook bits stay a superset after deaths: every use checks the
         * minion's own hooks too, so stale bits only cost a scan. */
        update_auras(c);
        /* A coin flip when both sides lost minions, else the side that did. */
        int first = nd0 && nd0 < total ? (int)rng_below(&c->rng, 2) : nd0 == 0;
        /* Nothing below can happen without a death trigger on either side or
         * a dead minion with a deathrattle or Reborn: only those summon. */
        work |= reborn | ((c->s[0].hooks | c->s[1].hooks) & (H_FRIEND_DEATH | H_AFTER_DEATH));
        work |= c->hero[0].death_secrets | c->hero[1].death_secrets;
        if (!work) continue;
        /* One pass over both sides' dead, the first side's first: start at
         * its part of the list and wrap around. */
        int start = first ? nd0 : 0;
        for (int j = 0; j < total; j++) {
            int at = j + start < total ? j + start : j + start - total;
            Death *d = &dead[at];
            int side = at >= nd0;
            const Source *src = &d->src;
            friend_died(c, side, d, 0);
            if ((src->hooks & H_DEATHRATTLE) || src->n_magnets || src->spores)
                run_deathrattles(c, side, src, d->anchor);
            friend_died(c, side, d, 1);
            /* Secrets that react to a friendly death come after its
             * Deathrattles and "after a friendly minion dies" triggers. */
            if (UNLIKELY(c->hero[side].death_secrets)) {
                hero_friend_died(c, side, src, d->anchor);
                flush(c);
            }
        }
        for (int j = 0; j < total && reborn; j++) {
            int at = j + start < total ? j + start : j + start - total;
            const Source *src = &dead[at].src;
            if (!(src->kw & BG_KW_REBORN)) continue;
            int side = at >= nd0;
            Side *s = &c->s[side];
            const bg_card_info *info = &BG_CARDS[src->card];
            uint8_t kw = (uint8_t)((src->golden ? info->gkw : info->kw) & ~BG_KW_REBORN);
            if (c->ev) log_event(c, BG_EV_TRIGGER, side, -1, src->eid, 0, src->card, src->golden, 0, BG_TR_REBORN, 0);
            uint8_t saved = c->spawn_attacked;
            c->spawn_attacked = spawn_flag(s, src->attacked, src->eid);
            uint16_t made[BG_MAX_BOARD];
            int n = summon_copies(c, side, dead[at].anchor, src->card, src->golden,
                                  src->golden ? info->gatk : info->atk, 1, kw, src->src, made,
                                  BG_MAX_BOARD);
            wound(c, side, made, n, (src->golden ? info->ghp : info->hp) - 1);
            c->spawn_attacked = saved;
        }
    }
}

static inline void resolve_deaths(Combat *c) {
    if (c->s[0].dead | c->s[1].dead) process_deaths(c);
}

/* ------------------------------------------------------------ attacks */

/* The leftmost minion that has not attacked in this cycle; when all have,
 * a new cycle starts from the left. Minions with 0 Attack never attack. */
static int pick_attacker(Side *s) {
    for (int i = 0; i < s->n; i++)
        if (!s->m[i].attacked && s->m[i].atk > 0) return i;
    int found = -1;
    for (int i = 0; i < s->n; i++) {
        s->m[i].attacked = 0;
        if (found < 0 && s->m[i].atk > 0) found = i;
    }
    return found;
}

static int can_attack(const Side *s) {
    for (int i = 0; i < s->n; i++)
        if (s->m[i].atk > 0) return 1;
    return 0;
}

/* Zapp Slywick attacks the minion with the lowest Attack. */
static NOINLINE int pick_lowest_attack(Combat *c, const Side *s) {
    int pick[BG_MAX_BOARD], k = 0;
    int32_t low = INT32_MAX;
    for (int i = 0; i < s->n; i++) {
        const Minion *m = &s->m[i];
        if (is_dead(m)) continue;
        if (m->atk < low) {
            low = m->atk;
            k = 0;
        }
        if (m->atk == low) pick[k++] = i;
    }
    return k ? pick[k == 1 ? 0 : rng_below(&c->rng, (uint32_t)k)] : -1;
}

/* The r-th set bit of mask, r below its popcount. */
static int nth_bit(unsigned mask, int r) {
    for (; r > 0; r--) mask &= mask - 1;
    return lowest_bit(mask);
}

/* A random minion of the slots in mask (not empty): the r-th in slot order. */
static NOINLINE int pick_in(Combat *c, unsigned mask) {
    int k = 0;
    for (unsigned m = mask; m; m &= m - 1) k++;
    return nth_bit(mask, k == 1 ? 0 : (int)rng_below(&c->rng, (uint32_t)k));
}

/* A random living enemy, a random Taunt if there is one. Normally every
 * enemy is alive (deaths are resolved before the next attack), and when none
 * has Taunt the pick is simply a random slot. */
static ALWAYS_INLINE int pick_target(Combat *c, int side, const Minion *attacker) {
    const Side *s = &c->s[side];
    if (UNLIKELY(attacker->card == C_ZAPP_SLYWICK)) return pick_lowest_attack(c, s);
    int n = s->n;
    if (LIKELY(!s->taunts && !s->dead)) return n > 1 ? (int)rng_below(&c->rng, (uint32_t)n) : n - 1;
    unsigned alive = ((1u << n) - 1) & ~(unsigned)s->dead, taunt = 0;
    for (int i = 0; i < n; i++) taunt |= (unsigned)((s->m[i].kw & BG_KW_TAUNT) != 0) << i;
    unsigned pool = taunt & alive ? taunt & alive : alive;
    if (!pool) return -1;
    return pool & (pool - 1) ? pick_in(c, pool) : lowest_bit(pool); /* one choice: no draw */
}

/* "Whenever this is attacked" effects resolve before "whenever this attacks". */
static NOINLINE void notify_attack(Combat *c, int s, int ai, int ti) {
    Side *A = &c->s[s], *D = &c->s[!s];
    /* The defender's Secrets first, in the order they came into play. */
    if (UNLIKELY(c->hero[!s].attacked_secrets)) hero_attacked(c, !s, ti);
    if (D->hooks & H_ATTACKED)
        for (int i = 0; i < D->n; i++)
            if ((D->m[i].hooks & H_ATTACKED) && !is_dead(&D->m[i]))
                BG_HOOKS[D->m[i].card].attacked(c, !s, i, ti);
    if (A->hooks & H_ON_ATTACK)
        for (int i = 0; i < A->n; i++)
            if ((A->m[i].hooks & H_ON_ATTACK) && !is_dead(&A->m[i]))
                BG_HOOKS[A->m[i].card].on_attack(c, s, i, ai);
}

/* Cave Hydra and Foe Reaper 4000 also hit the target's living neighbours. */
static NOINLINE void cleave(Combat *c, int s, int ai, int ti, int32_t amount, int poisonous) {
    Side *D = &c->s[!s];
    for (int i = ti - 1; i >= 0; i--)
        if (!is_dead(&D->m[i])) {
            hit(c, !s, i, amount, s, ai, poisonous);
            break;
        }
    for (int i = ti + 1; i < D->n; i++)
        if (!is_dead(&D->m[i])) {
            hit(c, !s, i, amount, s, ai, poisonous);
            break;
        }
}

/* Overkill and "after this attacks" effects of the attacker. */
static NOINLINE void after_attack(Combat *c, int s, int ai, uint16_t eid, int killed,
                                  uint16_t teid, int excess) {
    Side *A = &c->s[s];
    const CardHooks *h = &BG_HOOKS[A->m[ai].card];
    if (excess && h->overkill) {
        if (c->ev) log_event(c, BG_EV_TRIGGER, s, ai, eid, 0, A->m[ai].card, A->m[ai].golden, 0, BG_TR_OVERKILL, excess);
        h->overkill(c, s, ai, excess);
        flush(c);
        ai = slot_of(A, eid);
    }
    if (ai >= 0 && h->after_attack) {
        h->after_attack(c, s, ai, killed, teid, excess);
        flush(c);
    }
}

static void run_immediate_attacks(Combat *c);
static void attack(Combat *c, int s, uint16_t eid, int hint);

/* One attack by the minion eid of side s (at slot `hint` if still there). */
static ALWAYS_INLINE void attack_by(Combat *c, const int s, uint16_t eid, int hint) {
    Side *A = &c->s[s], *D = &c->s[!s];
    int ai = hint >= 0 && hint < A->n && A->m[hint].eid == eid ? hint : slot_of(A, eid);
    if (ai < 0 || is_dead(&A->m[ai]) || A->m[ai].atk <= 0 || c->aborted) return;
    int ti = pick_target(c, !s, &A->m[ai]);
    if (ti < 0) return;
    c->attacks++;
    Minion *att = &A->m[ai], *def = &D->m[ti];
    uint16_t teid = def->eid;
    if (UNLIKELY(c->ev != NULL)) {
        /* The start event names the side that attacks first: the one whose
         * turn comes first may have nothing that can attack. */
        if (c->attacks - c->hero_attacks == 1 && c->res->n_events > 0) c->ev[0].side = (int8_t)s;
        log_event(c, BG_EV_ATTACK, s, ai, eid, teid, att->card, att->golden, att->kw, ti, 0);
    }
    if (UNLIKELY((D->hooks & H_ATTACKED) || (A->hooks & H_ON_ATTACK))) notify_attack(c, s, ai, ti);
    int32_t strike = att->atk, back = def->atk;
    int att_poison = (att->kw & BG_KW_POISONOUS) != 0, def_poison = (def->kw & BG_KW_POISONOUS) != 0;
    int32_t target_hp = def->hp;
    int ogre = def->card == C_YO_HO_OGRE;
    /* Nothing summons during the damage group (damage triggers wait in the
     * pending queue), so slots stay put until flush_pending. */
    int dealt = hit_inline(c, !s, ti, strike, s, ai, att_poison);
    if (UNLIKELY(att->card == C_CAVE_HYDRA || att->card == C_FOE_REAPER_4000))
        cleave(c, s, ai, ti, strike, att_poison);
    hit(c, s, ai, back, !s, ti, def_poison);
    if (UNLIKELY(c->npend != 0)) {
        uint32_t moves = c->moves;
        flush_pending(c);
        if (c->moves != moves) {
            ai = slot_of(A, eid);
            ti = slot_of(D, teid);
        }
    }
    if (UNLIKELY(ai >= 0 && (A->m[ai].hooks & (H_OVERKILL | H_AFTER_ATTACK)))) {
        int killed = ti >= 0 && is_dead(&D->m[ti]) && dealt > 0;
        int excess = killed && target_hp > 0 && dealt > target_hp ? dealt - target_hp : 0;
        after_attack(c, s, ai, eid, killed, teid, excess);
    }
    resolve_deaths(c);
    /* Yo-Ho-Ogre: survived being attacked, so it attacks right away. */
    if (UNLIKELY(ogre) && slot_of(D, teid) >= 0) queue_immediate_attack(c, !s, teid);
    if (UNLIKELY(c->nimm != 0)) run_immediate_attacks(c);
}

/* A copy of the attack code for each side: the side becomes a constant, and
 * each side's data-dependent branches get their own history in the branch
 * predictor (the two boards differ, so their outcomes do too). */
static NOINLINE void attack_by_0(Combat *c, uint16_t eid, int hint) { attack_by(c, 0, eid, hint); }
static NOINLINE void attack_by_1(Combat *c, uint16_t eid, int hint) { attack_by(c, 1, eid, hint); }

static void attack(Combat *c, int s, uint16_t eid, int hint) {
    if (s)
        attack_by_1(c, eid, hint);
    else
        attack_by_0(c, eid, hint);
}

/* A hero power's attack (Illidan's Wingmen): out of turn, like "attacks
 * immediately", leaving the attack order as it was. */
void hero_attack(Combat *c, int side, uint16_t eid) {
    if (c->attacks < MAX_ATTACKS) attack(c, side, eid, -1);
}

/* "Attacks immediately" (Sky Pirate, Yo-Ho-Ogre) happens out of turn and
 * leaves the attack order as it was. */
static void run_immediate_attacks(Combat *c) {
    while (c->nimm > 0 && !c->aborted) {
        int side = c->imm[0].side;
        uint16_t eid = c->imm[0].eid;
        c->nimm--;
        memmove(&c->imm[0], &c->imm[1], (size_t)c->nimm * sizeof c->imm[0]);
        if (c->attacks < MAX_ATTACKS) attack(c, side, eid, -1);
    }
    c->nimm = 0;
}

/* A side's turn: its next minion attacks (twice with Windfury, four times
 * with Mega-Windfury, while it lives). Returns 0 when nothing can attack. */
static ALWAYS_INLINE int take_turn(Combat *c, const int s) {
    Side *A = &c->s[s];
    int ai = pick_attacker(A);
    if (ai < 0) return 0;
    Minion *m = &A->m[ai];
    uint16_t eid = m->eid;
    uint8_t kw = m->kw;
    /* The attack pointer has passed every minion left of this one: those
     * that could not attack (0 Attack) wait for the next cycle too, even if
     * they gain Attack before it comes round. */
    for (int i = 0; i <= ai; i++) A->m[i].attacked = 1;
    A->last_attacker = eid;
    /* run_combat has just checked that both sides have minions and that the
     * fight goes on. The turn's first attack is inlined here (the usual one). */
    attack_by(c, s, eid, ai);
    if (LIKELY(!(kw & (BG_KW_WINDFURY | BG_KW_MEGA_WINDFURY)))) return 1;
    int times = (kw & BG_KW_MEGA_WINDFURY) ? 4 : 2;
    for (int k = 1; k < times; k++) {
        if (c->s[!s].n == 0 || c->attacks >= MAX_ATTACKS || c->aborted) break;
        ai = slot_of(A, eid);
        if (ai < 0) break;
        attack(c, s, eid, ai);
    }
    return 1;
}

/* --------------------------------------------------------- start, end */

/* Start of Combat effects alternate between the players, the first attacker
 * first (unsettled: see DESIGN), each player's left to right. The deaths an
 * effect causes, with their Deathrattles and Reborn, resolve before the next
 * effect fires, and a minion that died before its turn does not fire. Red
 * Whelp counts the Dragons each side had before any of them fired (load_side
 * counts them: nothing has changed the boards yet). */
static void start_of_combat(Combat *c, int first) {
    if (!((c->s[0].hooks | c->s[1].hooks) & H_START)) return;
    uint16_t eids[2][BG_MAX_BOARD];
    int n[2] = {0, 0}, k[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        const Side *s = &c->s[side];
        for (int i = 0; i < s->n; i++)
            if (s->m[i].hooks & H_START) eids[side][n[side]++] = s->m[i].eid;
    }
    int side = first;
    while (k[0] < n[0] || k[1] < n[1]) {
        if (k[side] < n[side]) {
            Side *s = &c->s[side];
            uint16_t eid = eids[side][k[side]++];
            int i = slot_of(s, eid);
            if (i >= 0 && !is_dead(&s->m[i])) {
                if (c->ev) log_event(c, BG_EV_TRIGGER, side, i, eid, 0, s->m[i].card, s->m[i].golden, 0, BG_TR_START_OF_COMBAT, 0);
                BG_HOOKS[s->m[i].card].start_of_combat(c, side, i);
                flush(c);
                resolve_deaths(c);
            }
        }
        side = !side;
    }
}

static int board_damage(const Side *s) {
    int d = s->tier;
    for (int i = 0; i < s->n; i++) d += BG_CARDS[s->m[i].card].tier;
    return d;
}

/* Run a loaded combat to its end; sets winner and damage. */
/* The side that moves first, as the start event says (Illidan changes it). */
void set_first_mover(Combat *c, int side) {
    if (c->ev && c->res->n_events > 0) c->ev[0].side = (int8_t)side;
}

/* Hero powers at the start of a fight: Deathwing's aura is shown on the
 * minions it reaches from the other board (a spec's figures hold its own
 * board's), then the Start of Combat hero powers (Al'Akir, Illidan, an armed
 * Y'Shaarj) act before any minion's. When both players have one, a coin
 * flip picks whose goes first (data/heroes.toml, Al'Akir: Firestone's
 * simulator of May 2021 flips, and a Battlegrounds designer wrote in January
 * 2022 that the hero powers were given a fixed order "rather than coin
 * flips"). The deaths each one causes resolve before the next. Returns the
 * side that takes the first turn. */
static NOINLINE int heroes_start(Combat *c, int first) {
    if (c->ev && c->dw) {
        for (int side = 0; side < 2; side++)
            if (c->hero[side].power == BG_HERO_DEATHWING)
                log_event(c, BG_EV_HERO, side, -1, 0, 0, 0, 0, 0, BG_HERO_DEATHWING, c->dw);
        for (int side = 0; side < 2; side++)
            if (c->hero[!side].power == BG_HERO_DEATHWING)
                for (int i = 0; i < c->s[side].n; i++) log_stats(c, side, i);
    }
    int soc[2];
    for (int side = 0; side < 2; side++) {
        const Hero *h = &c->hero[side];
        soc[side] = h->power == BG_HERO_ALAKIR || h->power == BG_HERO_ILLIDAN ||
                    (h->power == BG_HERO_YSHAARJ && h->armed);
    }
    if (soc[0] || soc[1]) {
        int order = soc[0] && soc[1] ? (int)rng_below(&c->rng, 2) : soc[1];
        for (int k = 0; k < 2; k++) {
            int side = k ? !order : order;
            if (!soc[side]) continue;
            first = hero_start_of_combat(c, side, first);
            flush(c);
            resolve_deaths(c);
            run_immediate_attacks(c);
        }
    }
    c->hero_attacks = c->attacks;
    return first;
}

/* The minions a side counts when the first attacker is decided: its own,
 * plus the one an armed Y'Shaarj will summon (room permitting): the game
 * counts it (Firestone's simulator, checked against a game replay in
 * September 2021; data/heroes.toml, Y'Shaarj). */
static int attackers_counted(const Combat *c, int side) {
    int n = c->s[side].n;
    const Hero *h = &c->hero[side];
    if (UNLIKELY(c->heroes) && h->power == BG_HERO_YSHAARJ && h->armed && n < BG_MAX_BOARD) n++;
    return n;
}

static void run_combat(Combat *c, int *winner, int *damage) {
    int n0 = attackers_counted(c, 0), n1 = attackers_counted(c, 1);
    int first = n0 > n1 ? 0 : n1 > n0 ? 1 : (int)rng_below(&c->rng, 2);
    if (c->ev) log_event(c, BG_EV_START, first, -1, 0, 0, 0, 0, 0, 0, 0);
    update_auras(c); /* Old Murk-Eye counts the enemy's Murlocs from here on */
    if (UNLIKELY(c->heroes)) first = heroes_start(c, first);
    start_of_combat(c, first);
    run_immediate_attacks(c);
    int side = first;
    while (c->s[0].n && c->s[1].n && c->attacks < MAX_ATTACKS && !c->aborted) {
        /* A copy of the turn for each side, like attack_by_0/1. */
        int attacked = side ? take_turn(c, 1) : take_turn(c, 0);
        if (!attacked && !can_attack(&c->s[!side])) break;
        side = !side;
    }
    int a = c->s[0].n, b = c->s[1].n;
    if (a && !b && !c->aborted) {
        *winner = 0;
        *damage = board_damage(&c->s[0]);
    } else if (b && !a && !c->aborted) {
        *winner = 1;
        *damage = board_damage(&c->s[1]);
    } else {
        *winner = -1;
        *damage = 0;
    }
    if (UNLIKELY(c->heroes) && *winner >= 0) *damage = hero_damage(c, !*winner, *damage);
    if (c->ev) log_event(c, BG_EV_END, *winner, -1, 0, 0, 0, 0, 0, *damage, c->attacks);
}

/* -------------------------------------------------------------- input */

int bg_card_count(void) { return BG_N_CARDS; }

const bg_card_info *bg_card(int index) {
    return index >= 0 && index < BG_N_CARDS ? &BG_CARDS[index] : NULL;
}

uint32_t bg_card_hooks(int index) {
    return index >= 0 && index < BG_N_CARDS ? BG_HOOKS[index].hooks : 0;
}

int bg_hero_count(void) { return BG_N_HEROES; }

const bg_hero_info *bg_hero(int index) {
    return index >= 0 && index < BG_N_HEROES ? &BG_HEROES[index] : NULL;
}

int bg_hero_power_count(void) { return BG_N_HERO_POWERS; }

const bg_named_card *bg_hero_power(int index) {
    return index >= 0 && index < BG_N_HERO_POWERS ? &BG_HERO_POWERS[index] : NULL;
}

const bg_named_card *bg_secret(int code) {
    return code >= 1 && code < BG_N_SECRET_KINDS ? &BG_SECRETS[code] : NULL;
}

typedef char secret_codes_follow_the_table[BG_N_SECRET_KINDS == BG_SECRET_COUNT + 1 ? 1 : -1];

static int check_hero(const bg_board_in *b) {
    if (b->hero >= BG_N_HERO_KINDS || b->armed > 1 || b->n_secrets > BG_MAX_SECRETS)
        return BG_ERR_HERO;
    unsigned seen = 0;
    for (int k = 0; k < b->n_secrets; k++) {
        unsigned code = b->secret[k];
        if (code < 1 || code >= BG_N_SECRET_KINDS || (seen & (1u << code))) return BG_ERR_HERO;
        seen |= 1u << code;
    }
    return BG_OK;
}

int bg_check_board(const bg_board_in *b) {
    if (!b || b->n < 0 || b->n > BG_MAX_BOARD) return BG_ERR_BOARD_SIZE;
    if (check_hero(b)) return BG_ERR_HERO;
    if (b->tier < 1 || b->tier > 6) return BG_ERR_TIER;
    if (b->health < -STAT_MAX || b->health > STAT_MAX) return BG_ERR_STATS;
    for (int i = 0; i < b->n; i++) {
        const bg_minion_in *m = &b->m[i];
        if (m->card >= BG_N_CARDS || (BG_CARDS[m->card].flags & CF_SPELL)) return BG_ERR_CARD;
        if (m->golden > 1 || (m->golden && (BG_CARDS[m->card].flags & CF_NO_GOLDEN))) return BG_ERR_CARD;
        if (m->atk < 0 || m->atk > STAT_MAX || m->hp < 1 || m->hp > STAT_MAX) return BG_ERR_STATS;
        if (m->n_magnets > BG_MAX_MAGNETS || m->spores > BG_MAX_MAGNETS) return BG_ERR_MAGNET;
        for (int k = 0; k < m->n_magnets; k++)
            if (m->magnet_golden[k] > 1) return BG_ERR_MAGNET;
    }
    return BG_OK;
}

static void load_side(Combat *c, int side, const bg_board_in *b) {
    Side *s = &c->s[side];
    memset(s, 0, sizeof *s);
    s->tier = (uint8_t)b->tier;
    s->health = b->health;
    s->n = (uint8_t)b->n;
    for (int i = 0; i < b->n; i++) {
        const bg_minion_in *in = &b->m[i];
        Minion *m = &s->m[i];
        memset(m, 0, sizeof *m);
        m->card = in->card;
        m->golden = in->golden;
        m->kw = in->kw;
        m->atk = in->atk;
        m->hp = m->max_hp = in->hp;
        m->tribes = (uint8_t)BG_CARDS[in->card].tribes;
        m->eid = ++c->next_eid;
        m->src = (int8_t)i;
        m->n_magnets = in->n_magnets;
        for (int k = 0; k < in->n_magnets; k++) m->magnet_golden |= (uint8_t)(in->magnet_golden[k] << k);
        m->spores = in->spores;
        if (in->n_magnets || in->spores) m->kw |= BG_KW_DEATHRATTLE;
        s->taunts += (uint8_t)((m->kw & BG_KW_TAUNT) != 0);
        m->hooks = HOOKS16(in->card);
        if (m->hooks & H_AURA) c->has_aura = 1;
        s->hooks |= m->hooks;
        s->whelp_dragons += (uint8_t)((m->tribes & T_DRAGON) != 0);
    }
    hero_load(c, side, b);
}

/* Deathwing: +2 Attack for every minion in the fight, per Deathwing (the
 * engine keeps it with the aura part of a minion's Attack). */
static void deathwing_aura(Combat *c) {
    c->dw = 2 * ((c->hero[0].power == BG_HERO_DEATHWING) + (c->hero[1].power == BG_HERO_DEATHWING));
    if (!c->dw) return;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < c->s[side].n; i++) {
            Minion *m = &c->s[side].m[i];
            m->atk += c->dw;
            m->aura_atk = (int16_t)(m->aura_atk + c->dw);
        }
}

static int load(Combat *c, const bg_board_in *a, const bg_board_in *b, uint32_t tribes) {
    int err = bg_check_board(a);
    if (err) return err;
    err = bg_check_board(b);
    if (err) return err;
    memset(c, 0, sizeof *c);
    c->tribes = (uint8_t)(tribes & 0x7F);
    load_side(c, 0, a);
    load_side(c, 1, b);
    deathwing_aura(c);
    if (c->has_aura) {
        AuraSources src;
        count_aura_sources(c, &src);
        apply_auras(c, &src, 0);
        c->aura_stale = 1; /* the fight's first pass adds Old Murk-Eye's bonus */
    }
    return BG_OK;
}

int bg_board_auras(const bg_board_in *board, int32_t *atk_bonus, int32_t *hp_bonus) {
    int err = bg_check_board(board);
    if (err) return err;
    Combat c;
    memset(&c, 0, sizeof c);
    load_side(&c, 0, board);
    deathwing_aura(&c);
    AuraSources src;
    count_aura_sources(&c, &src);
    apply_auras(&c, &src, 0);
    for (int i = 0; i < board->n; i++) {
        atk_bonus[i] = c.s[0].m[i].aura_atk;
        hp_bonus[i] = c.s[0].m[i].aura_hp;
    }
    return BG_OK;
}

/* -------------------------------------------------------- entry points */

static int simulate_runs(const bg_board_in *a, const bg_board_in *b, int64_t runs, Rng *rng,
                         uint32_t tribes, bg_odds *out) {
    if (runs < 1 || runs > ((int64_t)1 << 40)) return BG_ERR_RUNS;
    Combat base;
    int err = load(&base, a, b, tribes);
    if (err) return err;
    PoolCache pools;
    pools.n = 0;
    base.pools = &pools;
    Combat c;
    for (int64_t r = 0; r < runs; r++) {
        memcpy(&c, &base, offsetof(Combat, pend));
        c.rng = *rng;
        int winner, damage;
        run_combat(&c, &winner, &damage);
        *rng = c.rng;
        int bin = damage < BG_DAMAGE_BINS ? damage : BG_DAMAGE_BINS - 1;
        if (winner == 0) {
            out->wins++;
            out->damage_dealt[bin]++;
            out->sum_dealt += damage;
            out->lethal_dealt += damage > 0 && damage >= b->health;
        } else if (winner == 1) {
            out->losses++;
            out->damage_taken[bin]++;
            out->sum_taken += damage;
            out->lethal_taken += damage > 0 && damage >= a->health;
        } else {
            out->ties++;
        }
    }
    out->runs += runs;
    return BG_OK;
}

int bg_simulate(const bg_board_in *a, const bg_board_in *b, int64_t runs, uint64_t seed,
                uint32_t tribes, bg_odds *out) {
    Rng rng;
    rng_seed(&rng, seed);
    memset(out, 0, sizeof *out);
    return simulate_runs(a, b, runs, &rng, tribes, out);
}

void bg_stream_seed(bg_stream *stream, uint64_t seed) {
    Rng rng;
    rng_seed(&rng, seed);
    memcpy(stream->s, rng.s, sizeof rng.s);
    stream->ahead = rng.ahead;
}

int bg_simulate_part(const bg_board_in *a, const bg_board_in *b, int64_t runs,
                     bg_stream *stream, uint32_t tribes, bg_odds *out) {
    Rng rng;
    memcpy(rng.s, stream->s, sizeof rng.s);
    rng.ahead = stream->ahead;
    int err = simulate_runs(a, b, runs, &rng, tribes, out);
    memcpy(stream->s, rng.s, sizeof rng.s);
    stream->ahead = rng.ahead;
    return err;
}

int bg_resolve(const bg_board_in *a, const bg_board_in *b, uint64_t seed, uint32_t tribes,
               bg_result *out, bg_event *events, int32_t capacity) {
    Combat c;
    int err = load(&c, a, b, tribes);
    if (err) return err;
    memset(out, 0, sizeof *out);
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < BG_MAX_BOARD; i++) out->perm[s][i].index = -1;
        out->first_kill[s] = 0xFFFF;
    }
    c.res = out;
    c.ev = capacity > 0 ? events : NULL;
    c.ev_cap = capacity;
    rng_seed(&c.rng, seed);
    int winner, damage;
    run_combat(&c, &winner, &damage);
    out->winner = winner;
    out->damage = damage;
    out->attacks = c.attacks;
    out->survivors[0] = c.s[0].n;
    out->survivors[1] = c.s[1].n;
    return out->truncated ? BG_ERR_LOG_FULL : BG_OK;
}
