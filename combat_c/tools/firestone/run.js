// Run Firestone's simulator (npm @firestone-hs/simulate-bgs-battle 1.1.58) on
// a job file written by firestone_oracle.py and write its odds as JSON.
//
//   node run.js JOB.json OUT.json
//
// JOB: {"cards": "cards.json", "fights": [{"name", "seed", "runs",
//        "player": {...}, "opponent": {...}}]}, boards in the simulator's own
// input shape. The card list replaces the one the simulator would download.
// Math.random is replaced by a seeded generator so every figure can be made
// again from the same job.
'use strict';
const fs = require('fs');

const [jobPath, outPath] = process.argv.slice(2);
if (!jobPath || !outPath) {
	console.error('usage: node run.js JOB.json OUT.json');
	process.exit(2);
}

// The simulator times itself and warns on stdout; keep those off.
for (const name of ['log', 'time', 'timeEnd', 'debug', 'warn', 'info']) {
	console[name] = () => {};
}

function seeded(seed) {
	// mulberry32
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const { AllCardsService } = require('@firestone-hs/reference-data');
const { CardsData } = require('@firestone-hs/simulate-bgs-battle/dist/cards/cards-data');
const { simulateBattle } = require('@firestone-hs/simulate-bgs-battle/dist/simulate-bgs-battle');

const job = JSON.parse(fs.readFileSync(jobPath, 'utf8'));
const cards = new AllCardsService();
cards.allCards = JSON.parse(fs.readFileSync(job.cards, 'utf8'));
cards.cache = {};
for (const card of cards.allCards) cards.cache[card.id] = card;
const cardsData = new CardsData(cards, false);
cardsData.inititialize([]);

const out = [];
const started = Date.now();
for (const fight of job.fights) {
	Math.random = seeded(fight.seed);
	const input = {
		playerBoard: fight.player,
		opponentBoard: fight.opponent,
		options: { numberOfSimulations: fight.runs, maxAcceptableDuration: 1e12 },
	};
	const r = simulateBattle(input, cards, cardsData);
	out.push({
		name: fight.name,
		won: r.won,
		tied: r.tied,
		lost: r.lost,
		damageWon: r.damageWon,
		damageLost: r.damageLost,
	});
}
fs.writeFileSync(outPath, JSON.stringify({ seconds: (Date.now() - started) / 1000, results: out }));
