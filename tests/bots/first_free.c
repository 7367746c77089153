/* A deterministic tic-tac-toe bot in C: the first free square, row by row, and a line on
 * stderr at each move. The arena's page test uploads it (its owner alone sees that line) and
 * the arena's benchmark plays it: it starts and answers at once. */
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[256];
    int taken[3][3] = {{0}};
    setvbuf(stdout, NULL, _IONBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        int x, y, done = 0;
        if (!strncmp(line, "game", 4)) memset(taken, 0, sizeof taken);
        else if (!strncmp(line, "start", 5)) printf("ready cbot 1\n");
        else if (sscanf(line, "opponent %d %d", &x, &y) == 2 || sscanf(line, "played %d %d", &x, &y) == 2) taken[y][x] = 1;
        else if (!strncmp(line, "turn", 4)) {
            fprintf(stderr, "c bot thinking\n");
            for (y = 0; y < 3 && !done; y++)
                for (x = 0; x < 3 && !done; x++)
                    if (!taken[y][x]) { taken[y][x] = 1; printf("%d %d\n", x, y); done = 1; }
        } else if (!strncmp(line, "quit", 4)) break;
    }
    return 0;
}
