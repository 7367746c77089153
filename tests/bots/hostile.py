#!/usr/bin/env python3
"""A hostile bot for the referee's containment tests: plays tic-tac-toe (first free square)
and attacks its host, its opponent or the referee in the way named by its first argument,
reporting on stderr what it tried and what came of it ("ATTACK: refused (...)" or
"ATTACK: allowed"), one line each, flushed at once.

usage: hostile.py MODE[:PARAM] [MARKER]
MARKER is a unique word the tests put on both bots' command lines to find their processes.

Modes (attacks run at the first turn unless said otherwise):
  remount:FILE    drop into every privilege it can: remount / and its own directory
                  read-write, make a user namespace and remount there, become root, write FILE
  hunt:SECRET[:DIR...]  look everywhere it can for files named after SECRET (the opponent's
                  scratch, its opening book) and say whether each DIR exists
  book:SECRET     (before 'ready') write book-SECRET into $TMPDIR, $HOME and /dev/shm
  sockets:A,B     connect to each UNIX socket (a path, or @name for an abstract one), send data
  cgroup-escape   write its pid into the root cgroups, mount a cgroup hierarchy, then fork
                  until refused (at most 100) and hang
  hog:N:MIB       fork N children holding MIB MiB each, then hang
  fill:DIR,DIR    write 8 MiB files into each DIR ('tmp' for $TMPDIR, 'shm' for /dev/shm) until
                  refused, then play on
  bigfile         write one byte 1 GiB into a file in $TMPDIR (past any file-size limit),
                  dying of SIGXFSZ as a C program would
  stop            SIGSTOP every other python process carrying MARKER (its opponent)
  kill-referee    SIGKILL every process that looks like the referee, by pid and by pidfd,
                  and trace it
  daemon:FLAG     leave a child and a daemon (double fork, setsid) behind, write its pid into
                  FLAG, hang
  env             list the names of its environment variables (before 'ready')
  ids:NAME        wait half a second before 'ready', long enough for a test to find which
                  host user runs it (NAME tells the bots apart on their command lines)
"""
import ctypes
import os
import signal
import socket
import sys
import time

arg = sys.argv[1] if len(sys.argv) > 1 else "env"
mode, _, param = arg.partition(":")
marker = sys.argv[2] if len(sys.argv) > 2 else None
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_void_p]


def report(line):
    print(line, file=sys.stderr, flush=True)


def outcome(name, attempt):
    """Runs attempt(); reports whether it was allowed or refused."""
    try:
        attempt()
        report("%s: allowed" % name)
        return True
    except OSError as error:
        report("%s: refused (%s)" % (name, error))
        return False


def checked(result):
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
PTRACE_ATTACH, PTRACE_DETACH = 16, 17
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
CLONE_NEWNS, CLONE_NEWUSER = 0x20000, 0x10000000


def remount_rw(path):
    checked(libc.mount(None, path.encode(), None, MS_REMOUNT | MS_BIND, None))


def attack_privileges(target):
    status = open("/proc/self/status").read().splitlines()
    for line in status:
        if line.split(":")[0] in ("Uid", "Gid", "CapEff", "CapBnd", "NoNewPrivs"):
            report("status %s" % " ".join(line.split()))
    own = os.path.dirname(os.path.abspath(__file__))
    outcome("remount /", lambda: remount_rw("/"))
    outcome("remount own directory", lambda: remount_rw(own))
    if outcome("user namespace", lambda: checked(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS))):
        outcome("remount own directory in it", lambda: remount_rw(own))
    outcome("setuid 0", lambda: os.setuid(0))

    def write():
        with open(target, "w") as f:
            f.write("escaped")

    outcome("write own directory", write)


def hunt(secret, dirs):
    found = []
    roots = ["/tmp", "/var/tmp", "/dev/shm", "/run", "/home", "/root", "/srv", "/mnt"]
    roots.append(os.environ.get("HOME", "/"))
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            roots.append("/proc/%s/root/tmp" % pid)
            try:
                environ = open("/proc/%s/environ" % pid, "rb").read().split(b"\0")
                for entry in environ:
                    if entry.startswith(b"TMPDIR=") or entry.startswith(b"HOME="):
                        roots.append(entry.split(b"=", 1)[1].decode())
            except OSError:
                pass
    seen = set()
    for root in roots:
        for path, subdirs, files in os.walk(root):
            # Two levels down from each place: where scratch directories and books are.
            if path in seen or path.count("/") > root.rstrip("/").count("/") + 2:
                subdirs[:] = []
                continue
            seen.add(path)
            found.extend(os.path.join(path, f) for f in files if secret in f)
    report("found: %d %s" % (len(set(found)), sorted(set(found))[:5]))
    report("top level: %s" % " ".join(sorted(os.listdir("/"))))
    for path in dirs:
        report("%s: %s" % (path, "visible" if os.path.exists(path) else "hidden"))


def write_book(secret):
    name = "book-" + secret
    for place in (os.environ.get("TMPDIR", "/tmp"), os.environ.get("HOME", "/tmp"), "/dev/shm"):
        try:
            with open(os.path.join(place, name), "w") as f:
                f.write("1. e4 e5")
            report("book written in %s" % place)
        except OSError as error:
            report("book not written in %s (%s)" % (place, error))


def sockets(addresses):
    for address in addresses:
        path = "\0" + address[1:] if address.startswith("@") else address

        def connect():
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.settimeout(1)
            client.connect(path)
            client.sendall(b"hello from the bot\n")
            client.close()

        outcome("socket %s" % address, connect)


def cgroup_escape():
    me = str(os.getpid())
    for path in (
        "/sys/fs/cgroup/pids/cgroup.procs",
        "/sys/fs/cgroup/pids/tasks",
        "/sys/fs/cgroup/unified/cgroup.procs",
        "/sys/fs/cgroup/cgroup.procs",
    ):
        def move(path=path):
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, me.encode())
            finally:
                os.close(fd)

        outcome("join %s" % path, move)

    def mount_cgroup():
        os.makedirs("/tmp/cg", exist_ok=True)
        checked(libc.mount(b"cgroup", b"/tmp/cg", b"cgroup", 0, ctypes.c_char_p(b"pids")))

    outcome("mount cgroup", mount_cgroup)
    started = 0
    try:
        while started < 100:
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)
            started += 1
        report("forks: all %d allowed" % started)
    except OSError as error:
        report("fork refused after %d: %s" % (started, error))
    time.sleep(3600)


def hog(children, mib):
    read_end, write_end = os.pipe()
    for i in range(children):
        if os.fork() == 0:
            hoard = bytearray(mib << 20)
            for at in range(0, len(hoard), 4096):
                hoard[at] = 1
            os.write(write_end, b"x")
            time.sleep(3600)
            os._exit(0)
    held = 0
    for _ in range(children):
        os.read(read_end, 1)
        held += mib
        report("held: %d MiB" % held)
    time.sleep(3600)


def fill(dirs):
    chunk = b"\0" * (8 << 20)
    for name in dirs:
        place = {"tmp": os.environ.get("TMPDIR", "/tmp"), "shm": "/dev/shm"}.get(name, name)
        written = 0
        try:
            while written < (4 << 30):
                with open(os.path.join(place, "fill-%d" % written), "wb") as f:
                    f.write(chunk)
                written += len(chunk)
            report("filled %s: %d MiB, never refused" % (name, written >> 20))
        except OSError as error:
            report("filled %s: %d MiB (%s)" % (name, written >> 20, error.strerror))


def processes():
    """(pid, argv) of every process it can see but itself."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                argv = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\0")
            except OSError:
                continue
            found.append((int(pid), [a.decode(errors="replace") for a in argv]))
    return found


def stop_opponent():
    opponents = [
        pid for pid, argv in processes()
        if "python" in argv[0] and any(marker in a for a in argv)
    ]
    stopped = 0
    for pid in opponents:
        try:
            os.kill(pid, signal.SIGSTOP)
            stopped += 1
        except OSError:
            pass
    report("opponents seen: %d, stopped: %d" % (len(opponents), stopped))


def kill_referee():
    referees = [
        pid for pid, argv in processes()
        if any("referee" in a for a in argv[:1]) and "match" in argv
    ]
    killed = 0
    for pid in referees:
        for attempt in ("kill", "pidfd", "procfd"):
            try:
                if attempt == "kill":
                    os.kill(pid, signal.SIGKILL)
                else:
                    if attempt == "pidfd":
                        fd = os.pidfd_open(pid)
                    else:
                        fd = os.open("/proc/%d" % pid, os.O_RDONLY | os.O_DIRECTORY)
                    try:
                        signal.pidfd_send_signal(fd, signal.SIGKILL)
                    finally:
                        os.close(fd)
                killed += 1
            except OSError:
                pass
    traced = 0
    for pid in referees:
        if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
            traced += 1
            libc.ptrace(PTRACE_DETACH, pid, None, None)
    report("referees seen: %d, signals delivered: %d, traced: %d" % (len(referees), killed, traced))


def daemon(flag):
    if os.fork() == 0:
        time.sleep(3600)
        os._exit(0)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
        os._exit(0)
    os.wait()
    with open(flag + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(flag + ".tmp", flag)
    time.sleep(3600)


taken = set()
moves = 0
print("pid %d" % os.getpid(), file=sys.stderr, flush=True)
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "referee":
        taken = set()
        moves = 0
    elif words[0] == "start":
        if mode == "book":
            write_book(param)
        if mode == "env":
            report("env: %s" % " ".join(sorted(os.environ)))
        if mode == "ids":
            time.sleep(0.5)
        print("ready hostile 1", flush=True)
    elif words[0] in ("opponent", "played"):
        taken.add((int(words[1]), int(words[2])))
    elif words[0] == "turn":
        moves += 1
        if moves == 1:
            if mode == "remount":
                attack_privileges(param)
            elif mode == "hunt":
                secret, *dirs = param.split(":")
                hunt(secret, dirs)
            elif mode == "sockets":
                sockets(param.split(","))
            elif mode == "cgroup-escape":
                cgroup_escape()
            elif mode == "hog":
                children, mib = param.split(":")
                hog(int(children), int(mib))
            elif mode == "fill":
                fill(param.split(","))
            elif mode == "bigfile":
                # As a C program would: Python ignores SIGXFSZ and raises an error instead.
                signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
                with open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "big"), "wb") as f:
                    f.seek(1 << 30)
                    f.write(b"x")
            elif mode == "stop":
                stop_opponent()
            elif mode == "kill-referee":
                kill_referee()
            elif mode == "daemon":
                daemon(param)
        square = next((x, y) for y in range(3) for x in range(3) if (x, y) not in taken)
        taken.add(square)
        print("%d %d" % square, flush=True)
    elif words[0] == "quit":
        break
