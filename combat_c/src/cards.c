/* Combat text of every pool minion, one block per card, dispatched by event
 * through BG_HOOKS. Golden versions multiply the numbers or repeat the effect
 * as their text says; `g` below is 2 for a golden minion and 1 otherwise. */
#include "engine.h"

#define SELF(c, side, slot) (&(c)->s[side].m[slot])
#define G(m) golden_mult(m)

/* ---------------------------------------------------------------- helpers */

static void summon_tokens(Combat *c, int side, uint16_t anchor, uint16_t token, int golden,
                          int count) {
    for (int k = 0; k < count; k++) summon_card(c, side, anchor, token, golden, 0, NULL, 0);
}

static void buff_tribe(Combat *c, int side, int tribe, int exclude_slot, int32_t atk, int32_t hp) {
    Side *s = &c->s[side];
    for (int i = 0; i < s->n; i++)
        if (i != exclude_slot && (tribe == 0 || (s->m[i].tribes & tribe))) buff(c, side, i, atk, hp);
}

/* A minion's own hooks say whether it has a Deathrattle: a Fish of N'Zoth
 * gets one when it gains its first. */
static int has_any_deathrattle(const Minion *m) {
    return (m->hooks & H_DEATHRATTLE) || m->n_magnets || m->spores;
}

static void living_neighbours(const Side *s, int slot, int *left, int *right) {
    *left = *right = -1;
    for (int i = slot - 1; i >= 0; i--)
        if (!is_dead(&s->m[i])) {
            *left = i;
            break;
        }
    for (int i = slot + 1; i < s->n; i++)
        if (!is_dead(&s->m[i])) {
            *right = i;
            break;
        }
}

/* ------------------------------------------------------------ deathrattles */

/* Fiendish Servant: give this minion's Attack to a random friendly minion
 * (twice when golden). */
static void dr_fiendish_servant(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    for (int k = 0; k < (src->golden ? 2 : 1); k++) {
        int i = random_living(c, side, -1);
        if (i >= 0) buff(c, side, i, src->atk, 0);
    }
}

static void dr_harvest_golem(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_DAMAGED_GOLEM, src->golden, 1);
}

static void dr_imprisoner(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_IMP, src->golden, 1);
}

/* Kaboom Bot: 4 damage to a random enemy minion (twice when golden). */
static void dr_kaboom_bot(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    for (int k = 0; k < (src->golden ? 2 : 1); k++) {
        int t = random_living(c, !side, -1);
        if (t >= 0) deal_damage(c, !side, t, 4, side, -1, 0);
    }
}

static void dr_kindly_grandmother(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_BIG_BAD_WOLF, src->golden, 1);
}

/* Selfless Hero: Divine Shield to a random friendly minion without one
 * (two minions when golden). */
static void dr_selfless_hero(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    Side *s = &c->s[side];
    for (int k = 0; k < (src->golden ? 2 : 1); k++) {
        int pick[BG_MAX_BOARD], n = 0;
        for (int i = 0; i < s->n; i++)
            if (!is_dead(&s->m[i]) && !(s->m[i].kw & BG_KW_DIVINE_SHIELD)) pick[n++] = i;
        if (!n) return;
        give_keyword(c, side, pick[rng_below(&c->rng, (uint32_t)n)], BG_KW_DIVINE_SHIELD);
    }
}

static void dr_spawn_of_nzoth(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    int g = src->golden ? 2 : 1;
    buff_tribe(c, side, 0, -1, g, g);
}

/* Unstable Ghoul: 1 damage to all minions (twice when golden). */
static void dr_unstable_ghoul(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    for (int k = 0; k < (src->golden ? 2 : 1); k++) {
        uint16_t eids[2][BG_MAX_BOARD];
        int n[2];
        for (int s = 0; s < 2; s++) {
            n[s] = c->s[s].n;
            for (int i = 0; i < n[s]; i++) eids[s][i] = c->s[s].m[i].eid;
        }
        for (int o = 0; o < 2; o++) {
            int s = o == 0 ? side : !side;
            for (int i = 0; i < n[s]; i++) {
                int slot = slot_of(&c->s[s], eids[s][i]);
                if (slot >= 0) deal_damage(c, s, slot, 1, side, -1, 0);
            }
        }
        flush_pending(c);
    }
}

static void dr_infested_wolf(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_SPIDER, src->golden, 2);
}

/* Rat Pack: one Rat per point of Attack it had when it died. */
static void dr_rat_pack(Combat *c, int side, const Source *src, uint16_t anchor) {
    int32_t n = src->atk < BG_MAX_BOARD ? src->atk : BG_MAX_BOARD;
    summon_tokens(c, side, anchor, C_RAT, src->golden, n);
}

static void dr_replicating_menace(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_MICROBOT, src->golden, 3);
}

static void dr_warden_of_old(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    for (int k = 0; k < (src->golden ? 2 : 1); k++) add_to_hand(c, side, C_GOLD_COIN, 0);
}

static void dr_mechano_egg(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_ROBOSAUR, src->golden, 1);
}

static void dr_ring_matron(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_FIERY_IMP, src->golden, 2);
}

static void dr_savannah_highmane(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_HYENA, src->golden, 2);
}

static void dr_king_bagurgle(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    int g = src->golden ? 2 : 1;
    buff_tribe(c, side, T_MURLOC, -1, 2 * g, 2 * g);
}

/* Sneed's Old Shredder: a random Legendary minion (two when golden). */
static void dr_sneeds(Combat *c, int side, const Source *src, uint16_t anchor) {
    for (int k = 0; k < (src->golden ? 2 : 1); k++) {
        uint16_t card = random_pool_card(c, BG_POOL_LEGENDARY, BG_POOL_LEGENDARY_N, C_SNEED_S_OLD_SHREDDER, 6);
        summon_card(c, side, anchor, card, 0, 0, NULL, 0);
    }
}

static void dr_voidlord(Combat *c, int side, const Source *src, uint16_t anchor) {
    summon_tokens(c, side, anchor, C_VOIDWALKER, src->golden, 3);
}

/* Gentle Djinni: another random Elemental, and a copy of it to the hand if
 * it could be summoned (two when golden). */
static void dr_gentle_djinni(Combat *c, int side, const Source *src, uint16_t anchor) {
    for (int k = 0; k < (src->golden ? 2 : 1); k++) {
        uint16_t card = random_pool_card(c, BG_POOL_ELEMENTAL, BG_POOL_ELEMENTAL_N, C_GENTLE_DJINNI, 6);
        if (summon_card(c, side, anchor, card, 0, 0, NULL, 0)) add_to_hand(c, side, card, 0);
    }
}

/* Ghastcoiler: two random Deathrattle minions (four when golden). */
static void dr_ghastcoiler(Combat *c, int side, const Source *src, uint16_t anchor) {
    for (int k = 0; k < (src->golden ? 4 : 2); k++) {
        uint16_t card = random_pool_card(c, BG_POOL_DEATHRATTLE, BG_POOL_DEATHRATTLE_N, C_GHASTCOILER, 6);
        summon_card(c, side, anchor, card, 0, 0, NULL, 0);
    }
}

static void dr_goldrinn(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    int g = src->golden ? 2 : 1;
    buff_tribe(c, side, T_BEAST, -1, 5 * g, 5 * g);
}

/* Kangor's Apprentice: the first two (four) friendly Mechs that died this
 * combat, fresh from their cards. */
static void dr_kangors_apprentice(Combat *c, int side, const Source *src, uint16_t anchor) {
    const Side *s = &c->s[side];
    int n = src->golden ? 4 : 2;
    for (int k = 0; k < n && k < s->n_dead_mechs; k++)
        summon_card(c, side, anchor, s->dead_mech[k], s->dead_mech_golden[k], 0, NULL, 0);
}

static void dr_nadina(Combat *c, int side, const Source *src, uint16_t anchor) {
    (void)anchor;
    (void)src;
    Side *s = &c->s[side];
    for (int i = 0; i < s->n; i++)
        if (s->m[i].tribes & T_DRAGON) give_keyword(c, side, i, BG_KW_DIVINE_SHIELD);
}

static void dr_tide_razor(Combat *c, int side, const Source *src, uint16_t anchor) {
    for (int k = 0; k < (src->golden ? 6 : 3); k++) {
        uint16_t card = random_pool_card(c, BG_POOL_PIRATE, BG_POOL_PIRATE_N, 0xFFFF, 6);
        summon_card(c, side, anchor, card, 0, 0, NULL, 0);
    }
}

/* Scallywag: a 1/1 Sky Pirate that attacks immediately. */
static void dr_scallywag(Combat *c, int side, const Source *src, uint16_t anchor) {
    uint16_t eids[3];
    int n = summon_card(c, side, anchor, C_SKY_PIRATE, src->golden, 0, eids, 3);
    for (int k = 0; k < n && k < 3; k++) queue_immediate_attack(c, side, eids[k]);
}

/* --------------------------------------------------------------- overkill */

/* Herald of Flame: 3 (6) damage to the left-most enemy minion; a kill with
 * damage to spare is Overkill again. */
static void ok_herald_of_flame(Combat *c, int side, int self, int excess) {
    (void)excess;
    int32_t dmg = 3 * G(SELF(c, side, self));
    uint16_t eid = SELF(c, side, self)->eid;
    Side *e = &c->s[!side];
    for (int guard = 0; guard < BG_MAX_BOARD; guard++) {
        int t = -1;
        for (int i = 0; i < e->n && t < 0; i++)
            if (!is_dead(&e->m[i])) t = i;
        if (t < 0) return;
        int32_t before = e->m[t].hp;
        int dealt = deal_damage(c, !side, t, dmg, side, slot_of(&c->s[side], eid), 0);
        if (!(is_dead(&e->m[t]) && dealt > before)) return;
        int me = slot_of(&c->s[side], eid);
        if (c->ev) log_event(c, BG_EV_TRIGGER, side, me, eid, 0, C_HERALD_OF_FLAME, SELF(c, side, me)->golden, 0, BG_TR_OVERKILL, dealt - before);
    }
}

static void ok_ironhide_direhorn(Combat *c, int side, int self, int excess) {
    (void)excess;
    Minion *m = SELF(c, side, self);
    summon_card(c, side, right_anchor(&c->s[side], self), C_IRONHIDE_RUNT, m->golden, 0, NULL, 0);
}

static void ok_seabreaker_goliath(Combat *c, int side, int self, int excess) {
    (void)excess;
    int g = G(SELF(c, side, self));
    buff_tribe(c, side, T_PIRATE, self, 2 * g, 2 * g);
}

/* ------------------------------------------------------------ after attack */

/* Monstrous Macaw: after it attacks (even if it dies doing so), trigger a
 * random other friendly minion's Deathrattle (twice when golden); Baron
 * Rivendare repeats it as usual. */
static void aa_monstrous_macaw(Combat *c, int side, int self, int killed, uint16_t target,
                               int excess) {
    (void)killed, (void)target, (void)excess;
    Side *s = &c->s[side];
    uint16_t me = s->m[self].eid;
    int times = G(&s->m[self]);
    for (int k = 0; k < times; k++) {
        int pick[BG_MAX_BOARD], n = 0;
        for (int i = 0; i < s->n; i++)
            if (s->m[i].eid != me && !is_dead(&s->m[i]) && has_any_deathrattle(&s->m[i])) pick[n++] = i;
        if (!n) return;
        int i = pick[rng_below(&c->rng, (uint32_t)n)];
        Source src;
        source_of(&s->m[i], &src);
        run_deathrattles(c, side, &src, right_anchor(s, i));
    }
}

/* Wildfire Elemental: after killing its target, the excess damage hits a
 * random minion next to it (both neighbours when golden). */
static void aa_wildfire_elemental(Combat *c, int side, int self, int killed, uint16_t target,
                                  int excess) {
    if (!killed || excess <= 0) return;
    Side *e = &c->s[!side];
    int l, r;
    living_neighbours(e, slot_of(e, target), &l, &r);
    uint16_t le = l >= 0 ? e->m[l].eid : 0, re = r >= 0 ? e->m[r].eid : 0;
    if (!SELF(c, side, self)->golden && le && re) {
        if (rng_below(&c->rng, 2)) le = 0; else re = 0;
    }
    uint16_t me = SELF(c, side, self)->eid;
    if (le) deal_damage(c, !side, slot_of(e, le), excess, side, slot_of(&c->s[side], me), 0);
    if (re) deal_damage(c, !side, slot_of(e, re), excess, side, slot_of(&c->s[side], me), 0);
}

/* Nat Pagle: after killing its target, a random minion of its owner's tier
 * or lower to the hand (two when golden). */
static void aa_nat_pagle(Combat *c, int side, int self, int killed, uint16_t target, int excess) {
    (void)target, (void)excess;
    if (!killed) return;
    for (int k = 0; k < G(SELF(c, side, self)); k++) {
        uint16_t card = random_pool_card(c, BG_POOL_ALL, BG_POOL_ALL_N, 0xFFFF, c->s[side].tier);
        if (card < BG_N_CARDS) add_to_hand(c, side, card, 0);
    }
}

/* ------------------------------------------------------ attacking triggers */

/* Glyph Guardian: whenever it attacks, double (triple) its Attack. */
static void oa_glyph_guardian(Combat *c, int side, int self, int attacker) {
    if (self != attacker) return;
    Minion *m = SELF(c, side, self);
    buff(c, side, self, m->atk * (m->golden ? 2 : 1), 0);
}

static void oa_ripsnarl_captain(Combat *c, int side, int self, int attacker) {
    if (self == attacker || !(SELF(c, side, attacker)->tribes & T_PIRATE)) return;
    int g = G(SELF(c, side, self));
    buff(c, side, attacker, 2 * g, 2 * g);
}

static void oa_dread_admiral_eliza(Combat *c, int side, int self, int attacker) {
    if (!(SELF(c, side, attacker)->tribes & T_PIRATE)) return;
    int g = G(SELF(c, side, self));
    buff_tribe(c, side, 0, -1, 2 * g, g);
}

/* Tormented Ritualist: when attacked, adjacent minions get +1/+1 (+2/+2). */
static void at_tormented_ritualist(Combat *c, int side, int self, int defender) {
    if (self != defender) return;
    int g = G(SELF(c, side, self)), l, r;
    living_neighbours(&c->s[side], self, &l, &r);
    if (l >= 0) buff(c, side, l, g, g);
    if (r >= 0) buff(c, side, r, g, g);
}

static void at_arm_of_the_empire(Combat *c, int side, int self, int defender) {
    if (!(SELF(c, side, defender)->kw & BG_KW_TAUNT)) return;
    buff_permanent(c, side, defender, 2 * G(SELF(c, side, self)), 0);
}

static void at_champion_of_yshaarj(Combat *c, int side, int self, int defender) {
    if (!(SELF(c, side, defender)->kw & BG_KW_TAUNT)) return;
    int g = G(SELF(c, side, self));
    buff_permanent(c, side, self, g, g);
}

/* --------------------------------------------------------- shield triggers */

static void sl_bolvar(Combat *c, int side, int self) {
    buff(c, side, self, 2 * G(SELF(c, side, self)), 0);
}

static void sl_drakonid_enforcer(Combat *c, int side, int self) {
    int g = G(SELF(c, side, self));
    buff(c, side, self, 2 * g, 2 * g);
}

/* --------------------------------------------------------- damage triggers */

static void dm_imp_gang_boss(Combat *c, int side, int self) {
    Minion *m = SELF(c, side, self);
    summon_card(c, side, right_anchor(&c->s[side], self), C_IMP, m->golden, 0, NULL, 0);
}

static void dm_security_rover(Combat *c, int side, int self) {
    Minion *m = SELF(c, side, self);
    summon_card(c, side, right_anchor(&c->s[side], self), C_GUARD_BOT, m->golden, 0, NULL, 0);
}

/* Imp Mama: a random Demon with Taunt (two when golden). */
static void dm_imp_mama(Combat *c, int side, int self) {
    int times = G(SELF(c, side, self));
    uint16_t anchor = right_anchor(&c->s[side], self);
    for (int k = 0; k < times; k++) {
        uint16_t card = random_pool_card(c, BG_POOL_DEMON, BG_POOL_DEMON_N, C_IMP_MAMA, 6);
        summon_card(c, side, anchor, card, 0, BG_KW_TAUNT, NULL, 0);
    }
}

static void fr_barrens_blacksmith(Combat *c, int side, int self) {
    int g = G(SELF(c, side, self));
    buff_tribe(c, side, 0, self, 2 * g, 2 * g);
}

/* --------------------------------------------------------- summon triggers */

static void os_pack_leader(Combat *c, int side, int self, int summoned) {
    if (SELF(c, side, summoned)->tribes & T_BEAST) buff(c, side, summoned, 2 * G(SELF(c, side, self)), 0);
}

static void os_mama_bear(Combat *c, int side, int self, int summoned) {
    int g = G(SELF(c, side, self));
    if (SELF(c, side, summoned)->tribes & T_BEAST) buff(c, side, summoned, 4 * g, 4 * g);
}

static void os_murloc_tidecaller(Combat *c, int side, int self, int summoned) {
    if (SELF(c, side, summoned)->tribes & T_MURLOC) buff(c, side, self, G(SELF(c, side, self)), 0);
}

static void os_deflect_o_bot(Combat *c, int side, int self, int summoned) {
    if (!(SELF(c, side, summoned)->tribes & T_MECH)) return;
    buff(c, side, self, G(SELF(c, side, self)), 0);
    give_keyword(c, side, self, BG_KW_DIVINE_SHIELD);
}

static void os_bigfernal(Combat *c, int side, int self, int summoned) {
    if (!(SELF(c, side, summoned)->tribes & T_DEMON)) return;
    int g = G(SELF(c, side, self));
    buff_permanent(c, side, self, g, g);
}

/* ---------------------------------------------------------- death triggers */

static void fd_scavenging_hyena(Combat *c, int side, int self, const Source *dead, uint16_t anchor) {
    (void)anchor;
    int g = G(SELF(c, side, self));
    if (dead->tribes & T_BEAST) buff(c, side, self, 2 * g, g);
}

static void fd_junkbot(Combat *c, int side, int self, const Source *dead, uint16_t anchor) {
    (void)anchor;
    int g = G(SELF(c, side, self));
    if (dead->tribes & T_MECH) buff(c, side, self, 2 * g, 2 * g);
}

/* Soul Juggler: after a friendly Demon dies, 3 damage to a random enemy
 * minion (twice when golden). */
static void fd_soul_juggler(Combat *c, int side, int self, const Source *dead, uint16_t anchor) {
    (void)anchor;
    if (!(dead->tribes & T_DEMON)) return;
    uint16_t me = SELF(c, side, self)->eid;
    for (int k = 0; k < G(SELF(c, side, self)); k++) {
        int t = random_living(c, !side, -1);
        if (t >= 0) deal_damage(c, !side, t, 3, side, slot_of(&c->s[side], me), 0);
    }
}

/* Qiraji Harbinger: after a friendly Taunt minion dies, its neighbours get
 * +2/+2 (+4/+4). */
static void fd_qiraji_harbinger(Combat *c, int side, int self, const Source *dead, uint16_t anchor) {
    if (!(dead->kw & BG_KW_TAUNT)) return;
    Side *s = &c->s[side];
    int g = G(SELF(c, side, self));
    int slot = anchor_slot(s, anchor);
    for (int i = slot - 1; i >= 0; i--)
        if (!is_dead(&s->m[i])) {
            buff(c, side, i, 2 * g, 2 * g);
            break;
        }
    for (int i = slot; i < s->n; i++)
        if (!is_dead(&s->m[i])) {
            buff(c, side, i, 2 * g, 2 * g);
            break;
        }
}

/* Fish of N'Zoth (N'Zoth's hero power): after a friendly Deathrattle
 * minion dies, it gains its Deathrattles (heroes.c keeps them). */
static void fd_fish_of_nzoth(Combat *c, int side, int self, const Source *dead, uint16_t anchor) {
    (void)anchor;
    fish_gain(c, side, self, dead);
}

/* Waxrider Togwaggle: whenever a friendly Dragon kills an enemy, +2/+2. */
static void fk_waxrider_togwaggle(Combat *c, int side, int self, int killer) {
    (void)killer;
    int g = G(SELF(c, side, self));
    buff(c, side, self, 2 * g, 2 * g);
}

/* Red Whelp: damage equal to the friendly Dragons at the start of combat to
 * a random enemy minion (twice when golden). */
static void sc_red_whelp(Combat *c, int side, int self) {
    uint16_t me = SELF(c, side, self)->eid;
    int32_t dmg = c->s[side].whelp_dragons;
    for (int k = 0; k < G(SELF(c, side, self)); k++) {
        int t = random_living(c, !side, -1);
        if (t >= 0) deal_damage(c, !side, t, dmg, side, slot_of(&c->s[side], me), 0);
    }
}

/* ------------------------------------------------------------------ table */

#define DR(fn) .deathrattle = fn, .hooks = H_DEATHRATTLE

const CardHooks BG_HOOKS[BG_N_CARDS] = {
    /* tier 1 */
    [C_FIENDISH_SERVANT] = {DR(dr_fiendish_servant)},
    [C_MURLOC_TIDECALLER] = {.on_summon = os_murloc_tidecaller, .hooks = H_ON_SUMMON},
    [C_RED_WHELP] = {.start_of_combat = sc_red_whelp, .hooks = H_START},
    [C_SCALLYWAG] = {DR(dr_scallywag)},
    [C_SCAVENGING_HYENA] = {.friend_death = fd_scavenging_hyena, .hooks = H_FRIEND_DEATH},
    /* tier 2 */
    [C_GLYPH_GUARDIAN] = {.on_attack = oa_glyph_guardian, .hooks = H_ON_ATTACK},
    [C_HARVEST_GOLEM] = {DR(dr_harvest_golem)},
    [C_IMPRISONER] = {DR(dr_imprisoner)},
    [C_KABOOM_BOT] = {DR(dr_kaboom_bot)},
    [C_KINDLY_GRANDMOTHER] = {DR(dr_kindly_grandmother)},
    [C_MURLOC_WARLEADER] = {.hooks = H_AURA},
    [C_OLD_MURK_EYE] = {.hooks = H_AURA},
    [C_PACK_LEADER] = {.on_summon = os_pack_leader, .hooks = H_ON_SUMMON},
    [C_SELFLESS_HERO] = {DR(dr_selfless_hero)},
    [C_SOUTHSEA_CAPTAIN] = {.hooks = H_AURA},
    [C_SPAWN_OF_N_ZOTH] = {DR(dr_spawn_of_nzoth)},
    [C_TORMENTED_RITUALIST] = {.attacked = at_tormented_ritualist, .hooks = H_ATTACKED},
    [C_UNSTABLE_GHOUL] = {DR(dr_unstable_ghoul)},
    [C_WAXRIDER_TOGWAGGLE] = {.friend_kill = fk_waxrider_togwaggle, .hooks = H_FRIEND_KILL},
    [C_YO_HO_OGRE] = {.hooks = H_RULE}, /* attack() makes it strike back */
    /* tier 3 */
    [C_ARM_OF_THE_EMPIRE] = {.attacked = at_arm_of_the_empire, .hooks = H_ATTACKED},
    [C_BARRENS_BLACKSMITH] = {.frenzy = fr_barrens_blacksmith, .hooks = H_FRENZY},
    [C_DEFLECT_O_BOT] = {.on_summon = os_deflect_o_bot, .hooks = H_ON_SUMMON},
    [C_IMP_GANG_BOSS] = {.damaged = dm_imp_gang_boss, .hooks = H_DAMAGED},
    [C_INFESTED_WOLF] = {DR(dr_infested_wolf)},
    [C_KHADGAR] = {.hooks = H_KHADGAR},
    [C_MONSTROUS_MACAW] = {.after_attack = aa_monstrous_macaw, .hooks = H_AFTER_ATTACK},
    [C_RAT_PACK] = {DR(dr_rat_pack)},
    [C_REPLICATING_MENACE] = {DR(dr_replicating_menace)},
    [C_SOUL_JUGGLER] = {.after_friend_death = fd_soul_juggler, .hooks = H_AFTER_DEATH},
    [C_WARDEN_OF_OLD] = {DR(dr_warden_of_old)},
    /* tier 4 */
    [C_BIGFERNAL] = {.on_summon = os_bigfernal, .hooks = H_ON_SUMMON},
    [C_BOLVAR_FIREBLOOD] = {.shield_lost = sl_bolvar, .hooks = H_SHIELD_LOST},
    [C_CAVE_HYDRA] = {.hooks = H_CLEAVE},
    [C_CHAMPION_OF_Y_SHAARJ] = {.attacked = at_champion_of_yshaarj, .hooks = H_ATTACKED},
    [C_DRAKONID_ENFORCER] = {.shield_lost = sl_drakonid_enforcer, .hooks = H_SHIELD_LOST},
    [C_HERALD_OF_FLAME] = {.overkill = ok_herald_of_flame, .hooks = H_OVERKILL},
    [C_JUNKBOT] = {.friend_death = fd_junkbot, .hooks = H_FRIEND_DEATH},
    [C_MECHANO_EGG] = {DR(dr_mechano_egg)},
    [C_QIRAJI_HARBINGER] = {.after_friend_death = fd_qiraji_harbinger, .hooks = H_AFTER_DEATH},
    [C_RING_MATRON] = {DR(dr_ring_matron)},
    [C_RIPSNARL_CAPTAIN] = {.on_attack = oa_ripsnarl_captain, .hooks = H_ON_ATTACK},
    [C_SAVANNAH_HIGHMANE] = {DR(dr_savannah_highmane)},
    [C_SECURITY_ROVER] = {.damaged = dm_security_rover, .hooks = H_DAMAGED},
    [C_SIEGEBREAKER] = {.hooks = H_AURA},
    [C_WILDFIRE_ELEMENTAL] = {.after_attack = aa_wildfire_elemental, .hooks = H_AFTER_ATTACK},
    /* tier 5 */
    [C_BARON_RIVENDARE] = {.hooks = H_BARON},
    [C_IRONHIDE_DIREHORN] = {.overkill = ok_ironhide_direhorn, .hooks = H_OVERKILL},
    [C_KING_BAGURGLE] = {DR(dr_king_bagurgle)},
    [C_MAL_GANIS] = {.hooks = H_AURA},
    [C_MAMA_BEAR] = {.on_summon = os_mama_bear, .hooks = H_ON_SUMMON},
    [C_NAT_PAGLE_EXTREME_ANGLER] = {.after_attack = aa_nat_pagle, .hooks = H_AFTER_ATTACK},
    [C_SEABREAKER_GOLIATH] = {.overkill = ok_seabreaker_goliath, .hooks = H_OVERKILL},
    [C_SNEED_S_OLD_SHREDDER] = {DR(dr_sneeds)},
    [C_VOIDLORD] = {DR(dr_voidlord)},
    /* tier 6 */
    [C_DREAD_ADMIRAL_ELIZA] = {.on_attack = oa_dread_admiral_eliza, .hooks = H_ON_ATTACK},
    [C_FOE_REAPER_4000] = {.hooks = H_CLEAVE},
    [C_GENTLE_DJINNI] = {DR(dr_gentle_djinni)},
    [C_GHASTCOILER] = {DR(dr_ghastcoiler)},
    [C_GOLDRINN_THE_GREAT_WOLF] = {DR(dr_goldrinn)},
    [C_IMP_MAMA] = {.damaged = dm_imp_mama, .hooks = H_DAMAGED},
    [C_KANGOR_S_APPRENTICE] = {DR(dr_kangors_apprentice)},
    [C_NADINA_THE_RED] = {DR(dr_nadina)},
    [C_THE_TIDE_RAZOR] = {DR(dr_tide_razor)},
    [C_ZAPP_SLYWICK] = {.hooks = H_RULE}, /* pick_target() aims at the lowest Attack */
    /* minions hero powers make */
    [C_FISH_OF_N_ZOTH] = {.after_friend_death = fd_fish_of_nzoth,
                          .deathrattle = fish_deathrattles,
                          .hooks = H_AFTER_DEATH},
};
