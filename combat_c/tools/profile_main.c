/* Standalone driver for profiling the engine without Python
 * (valgrind --tool=callgrind, perf). Reads two raw bg_board_in structs as
 * written by combat_c/tools/profile.py and runs bg_simulate on them. */
#include <stdio.h>
#include <stdlib.h>

#include "../src/engine.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s BOARDS.bin RUNS\n", argv[0]);
        return 2;
    }
    bg_board_in boards[2];
    FILE *f = fopen(argv[1], "rb");
    if (!f || fread(boards, sizeof boards, 1, f) != 1) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    bg_odds odds;
    int err = bg_simulate(&boards[0], &boards[1], atoll(argv[2]), 1, 0, &odds);
    if (err) {
        fprintf(stderr, "engine error %d\n", err);
        return 1;
    }
    printf("win %.4f tie %.4f loss %.4f over %lld runs\n", (double)odds.wins / odds.runs,
           (double)odds.ties / odds.runs, (double)odds.losses / odds.runs, (long long)odds.runs);
    return 0;
}
