// CodinGame's globals for JavaScript bots, preloaded by the referee for `codingame:` bots run
// with node (protocol.md, section 12): CodinGame's generated code reads its input with
// readline() and may write with print() and printErr(), which plain Node does not define.
// readline() returns the next line of standard input without its end (LF or CR LF), or null
// once the input is closed; print() and printErr() write their arguments, separated by
// spaces, as one line to standard output and standard error.
import { readSync } from "node:fs";

const chunk = Buffer.alloc(1 << 16);
let pending = Buffer.alloc(0);
let closed = false;

globalThis.readline = () => {
    for (;;) {
        const end = pending.indexOf(10);
        if (end >= 0 || (closed && pending.length > 0)) {
            const cut = end >= 0 ? end : pending.length;
            let line = pending.subarray(0, cut).toString("utf8");
            pending = pending.subarray(cut + 1);
            return line.endsWith("\r") ? line.slice(0, -1) : line;
        }
        if (closed) {
            return null;
        }
        let read = 0;
        try {
            read = readSync(0, chunk, 0, chunk.length, null);
        } catch (error) {
            if (error.code !== "EAGAIN") {
                throw error;
            }
            continue;
        }
        closed = read === 0;
        pending = Buffer.concat([pending, chunk.subarray(0, read)]);
    }
};
globalThis.print = (...words) => process.stdout.write(words.join(" ") + "\n");
globalThis.printErr = (...words) => process.stderr.write(words.join(" ") + "\n");
