"""Runs a command, sends it SIGINT after N seconds (as Ctrl-C does), and says on stderr how long it
took to end after that. Passes its stdout and stderr through and exits with its status.
USAGE: python3 interrupt.py SECONDS COMMAND..."""
import signal
import subprocess
import sys
import time

delay, argv = float(sys.argv[1]), sys.argv[2:]
# A shell that runs tests may ignore SIGINT, and a child inherits that; a terminal's Ctrl-C does not.
p = subprocess.Popen(argv, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
try:
    p.wait(timeout=delay)
except subprocess.TimeoutExpired:
    p.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        print("interrupt.py: the command did not end within 60 s of SIGINT", file=sys.stderr)
        sys.exit(124)
    print(f"interrupt.py: the command ended {time.monotonic() - sent:.1f} s after SIGINT", file=sys.stderr)
sys.exit(p.returncode)
