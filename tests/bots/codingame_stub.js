// A CodinGame ultimate tic-tac-toe bot written as CodinGame's JavaScript bots are: it reads
// its input with the platform's readline() and answers with print(), globals that plain Node
// does not have (the referee preloads them for `codingame:` bots run with node). Each turn:
// the opponent's last move, the count of valid actions, the actions as `row col`; it plays
// the first valid action and logs the turn on stderr with printErr().
for (;;) {
    const opponent = readline();
    if (opponent === null) {
        break;
    }
    const count = parseInt(readline(), 10);
    const actions = [];
    for (let i = 0; i < count; i++) {
        actions.push(readline());
    }
    printErr("opponent", opponent, "actions", count);
    print(actions[0]);
}
