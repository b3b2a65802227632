/* Heroes in a fight (patch 20.0): what hero powers do in combat, The Great
 * Akazamzarak's Secrets (and Tickatus's Ice Block Prize, the same card), and
 * the Fish of N'Zoth's memory of the Deathrattles it gained. Deathwing's aura
 * lives with the other auras in engine.c. The behaviour of each power, with
 * its sources, is in data/heroes.toml; the orderings below cite theirs. */
#include "engine.h"

/* ---------------------------------------------------------------- setup */

static int reacts_to_attack(int code) {
    return code == BG_SECRET_VENOMSTRIKE_TRAP || code == BG_SECRET_SNAKE_TRAP ||
           code == BG_SECRET_SPLITTING_IMAGE || code == BG_SECRET_AUTODEFENSE_MATRIX;
}

static int reacts_to_death(int code) {
    return code == BG_SECRET_EFFIGY || code == BG_SECRET_AVENGE || code == BG_SECRET_REDEMPTION ||
           code == BG_SECRET_HAND_OF_SALVATION;
}

/* Which Secrets in play react to what (bits by position in the list). */
static void sort_secrets(Hero *h) {
    h->attacked_secrets = h->death_secrets = 0;
    for (int k = 0; k < h->n_secrets; k++) {
        if (!(h->secrets_on & (1u << k))) continue;
        if (reacts_to_attack(h->secret[k])) h->attacked_secrets |= (uint8_t)(1u << k);
        if (reacts_to_death(h->secret[k])) h->death_secrets |= (uint8_t)(1u << k);
    }
}

NOINLINE void hero_load(Combat *c, int side, const bg_board_in *b) {
    Hero *h = &c->hero[side];
    memset(h, 0, sizeof *h);
    h->power = b->hero;
    h->armed = b->armed;
    h->n_secrets = b->n_secrets;
    for (int k = 0; k < b->n_secrets; k++) h->secret[k] = b->secret[k];
    h->secrets_on = (uint8_t)((1u << b->n_secrets) - 1);
    h->greybough = b->hero == BG_HERO_GREYBOUGH;
    sort_secrets(h);
    /* notify_attack runs only for a side whose hooks say someone listens. */
    if (h->attacked_secrets) c->s[side].hooks |= H_ATTACKED;
    if (b->hero || b->n_secrets) c->heroes = 1;
}

/* A Secret is revealed: it is gone for the rest of the fight (and after). */
static void reveal(Combat *c, int side, int k, uint16_t eid) {
    Hero *h = &c->hero[side];
    h->secrets_on &= (uint8_t)~(1u << k);
    sort_secrets(h);
    if (c->res) c->res->secrets_used[side] |= (uint8_t)(1u << k);
    if (c->ev) log_event(c, BG_EV_SECRET, side, -1, eid, 0, 0, 0, 0, h->secret[k], 0);
}

static int board_full(const Combat *c, int side) { return c->s[side].n >= BG_MAX_BOARD; }

/* ------------------------------------------------------- Start of Combat */

/* One side's Start of Combat hero power; returns the side that takes the
 * first turn afterwards. */
NOINLINE int hero_start_of_combat(Combat *c, int side, int first) {
    Side *s = &c->s[side];
    const Hero *h = &c->hero[side];
    if (h->power == BG_HERO_ALAKIR) {
        /* Al'Akir: the left-most minion gains Windfury, Divine Shield and
         * Taunt (for this fight; a keyword it has stays). */
        if (!s->n) return first;
        if (c->ev) log_event(c, BG_EV_HERO, side, 0, s->m[0].eid, 0, 0, 0, 0, BG_HERO_ALAKIR, 0);
        give_keyword(c, side, 0, BG_KW_WINDFURY | BG_KW_DIVINE_SHIELD | BG_KW_TAUNT);
        return first;
    }
    if (h->power == BG_HERO_ILLIDAN) {
        /* Illidan: the left-most minion attacks, then the right-most one (as
         * it stood when the power fired) if it is another minion and still
         * alive; each attack and its deaths resolve before the next. They are
         * out of turn: the attack order is left as it was. Then the opponent
         * takes the first turn. (Firestone's later engine attacks with the
         * right-most minion of the start even when the left-most one died,
         * and gives the opponent the first turn, both from game replays:
         * src/simulation/start-of-combat/soc-illidan-hero-power.ts.) */
        if (!s->n) return first;
        uint16_t left = s->m[0].eid, right = s->n > 1 ? s->m[s->n - 1].eid : 0;
        if (c->ev) log_event(c, BG_EV_HERO, side, 0, left, 0, 0, 0, 0, BG_HERO_ILLIDAN, 0);
        hero_attack(c, side, left);
        int i = right ? slot_of(s, right) : -1;
        if (i >= 0 && !is_dead(&s->m[i])) {
            if (c->ev) log_event(c, BG_EV_HERO, side, i, right, 0, 0, 0, 0, BG_HERO_ILLIDAN, 0);
            hero_attack(c, side, right);
        }
        set_first_mover(c, !side);
        return !side;
    }
    if (h->power == BG_HERO_YSHAARJ && h->armed) {
        /* Y'Shaarj: a random minion of exactly his tier (lobby's types) at
         * the right end, and a plain copy of it to his hand; with a full
         * board, neither (data/heroes.toml). Red Whelp counts it: Red Whelps
         * count the Dragons after the hero powers' summons (Firestone's later
         * engine takes its boards "before" after them, soc-minion.ts). */
        if (board_full(c, side)) return first;
        uint16_t card = random_pool_tier(c, s->tier);
        if (card >= BG_N_CARDS) return first;
        if (c->ev) log_event(c, BG_EV_HERO, side, -1, 0, 0, card, 0, 0, BG_HERO_YSHAARJ, 0);
        if (summon_card(c, side, 0, card, 0, 0, NULL, 0)) {
            add_to_hand(c, side, card, 0);
            s->whelp_dragons += (uint8_t)((BG_CARDS[card].tribes & T_DRAGON) != 0);
        }
    }
    return first;
}

/* --------------------------------------------------------------- summons */

/* Deathwing: a summoned minion has his +2 Attack (per Deathwing in the
 * fight) as it enters, kept with the aura part of its Attack. */
NOINLINE void hero_entering(Combat *c, int side, int slot) {
    if (!c->dw) return;
    Minion *m = &c->s[side].m[slot];
    m->atk += c->dw;
    m->aura_atk = (int16_t)(m->aura_atk + c->dw);
}

/* Greybough: every minion summoned on his side gets +1/+2 and Taunt as it
 * enters, before the minions' "after you summon" triggers. */
NOINLINE void hero_summoned(Combat *c, int side, int slot) {
    if (!c->hero[side].greybough) return;
    const Minion *m = &c->s[side].m[slot];
    if (c->ev) log_event(c, BG_EV_HERO, side, slot, m->eid, 0, 0, 0, 0, BG_HERO_GREYBOUGH, 0);
    buff(c, side, slot, 1, 2);
    give_keyword(c, side, slot, BG_KW_TAUNT);
}

/* ---------------------------------------------------------------- kills */

/* An enemy minion of `side` died (resolve only): the count Ragnaros adds up
 * and the first one, which an armed Rafaam copies after the fight. */
NOINLINE void hero_kill(Combat *c, int side, const Minion *dead) {
    bg_result *r = c->res;
    r->kills[side]++;
    if (r->first_kill[side] != 0xFFFF) return;
    r->first_kill[side] = dead->card;
    r->first_kill_golden[side] = dead->golden;
    const Hero *h = &c->hero[side];
    if (c->ev && h->power == BG_HERO_RAFAAM && h->armed)
        log_event(c, BG_EV_HERO, side, -1, dead->eid, 0, dead->card, dead->golden, 0,
                  BG_HERO_RAFAAM, 0);
}

/* -------------------------------------------------------------- Secrets */

/* "When one of your minions is attacked": after the attack is declared and
 * before any damage, ahead of the minions' "whenever this is attacked"
 * triggers (Firestone's later engine, src/simulation/on-being-attacked.ts),
 * each in the order the Secrets came into play. A Secret that would summon
 * into a full board, or give Divine Shield to a minion that has it, stays. */
NOINLINE void hero_attacked(Combat *c, int side, int defender) {
    Hero *h = &c->hero[side];
    Side *s = &c->s[side];
    uint16_t eid = s->m[defender].eid;
    for (int k = 0; k < h->n_secrets; k++) {
        if (!(h->attacked_secrets & (1u << k))) continue;
        int d = slot_of(s, eid);
        if (d < 0) return;
        switch (h->secret[k]) {
        case BG_SECRET_AUTODEFENSE_MATRIX:
            if (s->m[d].kw & BG_KW_DIVINE_SHIELD) break;
            reveal(c, side, k, eid);
            give_keyword(c, side, d, BG_KW_DIVINE_SHIELD);
            break;
        case BG_SECRET_VENOMSTRIKE_TRAP:
            if (board_full(c, side)) break;
            reveal(c, side, k, eid);
            summon_card(c, side, 0, C_EMPEROR_COBRA, 0, 0, NULL, 0);
            break;
        case BG_SECRET_SNAKE_TRAP:
            if (board_full(c, side)) break;
            reveal(c, side, k, eid);
            for (int n = 0; n < 3; n++) summon_card(c, side, 0, C_SNAKE, 0, 0, NULL, 0);
            break;
        case BG_SECRET_SPLITTING_IMAGE: {
            /* A copy of the attacked minion as it stands (its stats, damage
             * and keywords, its magnetized Menaces and Living Spores; auras
             * are the copy's own) just right of it, waiting for the next
             * cycle if the minion has attacked in this one (as its tokens
             * would). */
            if (board_full(c, side)) break;
            reveal(c, side, k, eid);
            Minion was = s->m[d];
            int32_t atk = was.atk - was.aura_atk, hp = was.hp - was.aura_hp;
            int32_t full = was.max_hp - was.aura_hp;
            if (hp < 1) hp = 1;
            uint8_t saved = c->spawn_attacked;
            c->spawn_attacked = spawn_flag(s, was.attacked, was.eid);
            uint16_t made[BG_MAX_BOARD];
            int n = summon_minion(c, side, right_anchor(s, d), was.card, was.golden, atk, hp, was.kw,
                                  made, BG_MAX_BOARD);
            c->spawn_attacked = saved;
            for (int j = 0; j < n; j++) {
                int at = slot_of(s, made[j]);
                if (at < 0) continue;
                Minion *copy = &s->m[at];
                copy->max_hp += full > hp ? full - hp : 0;
                copy->n_magnets = was.n_magnets;
                copy->magnet_golden = was.magnet_golden;
                copy->spores = was.spores;
                if (was.n_magnets || was.spores) copy->hooks |= H_DEATHRATTLE;
            }
            break;
        }
        default:
            break;
        }
    }
}

/* "When a friendly minion dies" Secrets (Effigy, Avenge, Redemption, Hand of
 * Salvation): after the dead minion's Deathrattles and the "after a friendly
 * minion dies" triggers, before Reborn (Firestone's later engine resolves
 * Secrets "at Avenge speed", after Deathrattles and before Reborn:
 * src/simulation/deathrattle-orchestration.ts), in the order they came into
 * play, except Redemption, which goes last whatever the order (its low
 * priority, Hearthstone Wiki: so Avenge finds no other minion to buff when
 * the dead one was the last); their minions take the dead one's place. */
/* Secret k of side's hero, on the death of its minion dead (see below). */
static void death_secret(Combat *c, int side, int k, const Source *dead, uint16_t anchor) {
    Hero *h = &c->hero[side];
    const bg_card_info *info = &BG_CARDS[dead->card];
    switch (h->secret[k]) {
    case BG_SECRET_AVENGE: {
        /* A random living friendly minion +3/+2 (none left: it waits). */
        int i = random_living(c, side, -1);
        if (i < 0) break;
        reveal(c, side, k, dead->eid);
        buff(c, side, i, 3, 2);
        break;
    }
    case BG_SECRET_REDEMPTION: {
        /* The dead minion, fresh from its card, with 1 Health. */
        if (board_full(c, side)) break;
        reveal(c, side, k, dead->eid);
        uint16_t made[BG_MAX_BOARD];
        int n = summon_minion(c, side, anchor, dead->card, dead->golden,
                              dead->golden ? info->gatk : info->atk, 1,
                              (uint8_t)(dead->golden ? info->gkw : info->kw), made, BG_MAX_BOARD);
        wound(c, side, made, n, (dead->golden ? info->ghp : info->hp) - 1);
        break;
    }
    case BG_SECRET_EFFIGY: {
        /* A random minion of the same Tavern Tier (all Battlegrounds
         * minions cost the same; data/heroes.toml). */
        if (board_full(c, side)) break;
        uint16_t card = random_pool_tier(c, info->tier);
        if (card >= BG_N_CARDS) break;
        reveal(c, side, k, dead->eid);
        summon_card(c, side, anchor, card, 0, 0, NULL, 0);
        break;
    }
    case BG_SECRET_HAND_OF_SALVATION:
        /* The second friendly minion to die this fight comes back, fresh
         * from its card; with a full board it is lost. */
        if (h->deaths != 2 || board_full(c, side)) break;
        reveal(c, side, k, dead->eid);
        summon_card(c, side, anchor, dead->card, dead->golden, 0, NULL, 0);
        break;
    default:
        break;
    }
}

NOINLINE void hero_friend_died(Combat *c, int side, const Source *dead, uint16_t anchor) {
    Hero *h = &c->hero[side];
    Side *s = &c->s[side];
    h->deaths++;
    uint8_t saved = c->spawn_attacked;
    c->spawn_attacked = spawn_flag(s, dead->attacked, dead->eid);
    /* Two passes: every Secret but Redemption in play order, then Redemption. */
    for (int redemption = 0; redemption < 2; redemption++) {
        for (int k = 0; k < h->n_secrets; k++) {
            if ((h->death_secrets & (1u << k)) &&
                (h->secret[k] == BG_SECRET_REDEMPTION) == redemption)
                death_secret(c, side, k, dead, anchor);
        }
    }
    c->spawn_attacked = saved;
}

/* Ice Block: combat damage that would bring its hero to 0 Health or less is
 * prevented, and the Secret is spent (it checks the damage before it is
 * dealt, as a predamage trigger does; damage that leaves the hero alive
 * leaves it in play). Returns the damage the hero takes. */
NOINLINE int hero_damage(Combat *c, int side, int damage) {
    Hero *h = &c->hero[side];
    if (damage <= 0 || damage < c->s[side].health) return damage;
    for (int k = 0; k < h->n_secrets; k++) {
        if (h->secret[k] != BG_SECRET_ICE_BLOCK || !(h->secrets_on & (1u << k))) continue;
        reveal(c, side, k, 0);
        if (c->res) c->res->prevented = damage;
        return 0;
    }
    return damage;
}

/* ------------------------------------------------------- Fish of N'Zoth */

static FishMemory *fish_memory(Combat *c, uint16_t eid, int create) {
    for (int i = 0; i < c->n_fish; i++)
        if (c->fish[i].eid == eid) return &c->fish[i];
    if (!create || c->n_fish >= MAX_FISH) return NULL;
    FishMemory *f = &c->fish[c->n_fish++];
    f->eid = eid;
    f->n = 0;
    return f;
}

/* Add `times` of one deathrattle; a memory holds FISH_DEATHRATTLES kinds,
 * each up to 255 times (more never fit on a board's worth of fights). */
static int remember(FishMemory *f, uint16_t card, uint8_t golden, int times) {
    for (int i = 0; i < f->n; i++)
        if (f->dr[i].card == card && f->dr[i].golden == golden) {
            int t = f->dr[i].times + times;
            f->dr[i].times = (uint8_t)(t > 255 ? 255 : t);
            return 1;
        }
    if (f->n >= FISH_DEATHRATTLES) return 0;
    f->dr[f->n].card = card;
    f->dr[f->n].golden = golden;
    f->dr[f->n].times = (uint8_t)times;
    f->n++;
    return 1;
}

/* Fish of N'Zoth: after a friendly minion with a Deathrattle dies, the Fish
 * gains its Deathrattles: its card's, its magnetized Menaces', its Living
 * Spores' and those it had gained itself (a dead Fish's); a golden Fish
 * gains each twice. They last for this fight. */
NOINLINE void fish_gain(Combat *c, int side, int self, const Source *dead) {
    if (!((dead->hooks & H_DEATHRATTLE) || dead->n_magnets || dead->spores)) return;
    Minion *fish = &c->s[side].m[self];
    FishMemory *f = fish_memory(c, fish->eid, 1);
    if (!f) return;
    int times = fish->golden ? 2 : 1, gained = 0;
    if (dead->card == C_FISH_OF_N_ZOTH) {
        const FishMemory *other = fish_memory(c, dead->eid, 0);
        for (int i = 0; other && i < other->n; i++)
            gained |= remember(f, other->dr[i].card, other->dr[i].golden, other->dr[i].times * times);
    } else if (BG_HOOKS[dead->card].deathrattle) {
        gained |= remember(f, dead->card, dead->golden, times);
    }
    for (int k = 0; k < dead->n_magnets; k++)
        gained |= remember(f, C_REPLICATING_MENACE, (dead->magnet_golden >> k) & 1, times);
    if (dead->spores) gained |= remember(f, C_PLANT, 0, times * dead->spores);
    if (!gained) return;
    fish->hooks |= H_DEATHRATTLE;
    fish->kw |= BG_KW_DEATHRATTLE;
    if (c->ev) log_event(c, BG_EV_TRIGGER, side, self, fish->eid, 0, fish->card, fish->golden, 0, BG_TR_EFFECT, 0);
}

/* The Fish's Deathrattle: each one it gained, as if the Fish were that
 * minion (Rat Pack counts the Fish's Attack). */
NOINLINE void fish_deathrattles(Combat *c, int side, const Source *src, uint16_t anchor) {
    const FishMemory *f = fish_memory(c, src->eid, 0);
    if (!f) return;
    FishMemory copy = *f; /* a Deathrattle may make another Fish gain */
    for (int i = 0; i < copy.n; i++) {
        for (int t = 0; t < copy.dr[i].times; t++) {
            Source as = *src;
            as.card = copy.dr[i].card;
            as.golden = copy.dr[i].golden;
            as.n_magnets = 0;
            as.spores = 0;
            if (c->ev) log_event(c, BG_EV_TRIGGER, side, -1, src->eid, 0, as.card, as.golden, 0, BG_TR_DEATHRATTLE, 0);
            if (as.card == C_PLANT) {
                summon_card(c, side, anchor, C_PLANT, 0, 0, NULL, 0);
                summon_card(c, side, anchor, C_PLANT, 0, 0, NULL, 0);
            } else {
                BG_HOOKS[as.card].deathrattle(c, side, &as, anchor);
            }
            flush_pending(c);
        }
    }
}
