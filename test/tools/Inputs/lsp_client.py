#!/usr/bin/env python3
"""A minimal LSP client (stdlib only) for the cuda-scope-clangd test: starts a language server over
stdio in a directory, opens one file, waits for its textDocument/publishDiagnostics, prints each
diagnostic as `LINE:COL source code message` (1-based; the message's first line, clangd
appends the notes after it and also publishes them on their own), then shuts the server down.

USAGE: lsp_client.py [--timeout S] [--log FILE] DIR FILE -- SERVER [ARGS...]
Exits 1 when the server exits or no diagnostics come within the timeout."""
import argparse
import json
import os
import pathlib
import queue
import subprocess
import sys
import threading
import time


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def reader(stream, out):
    """Puts each message the server sends on `out`, then None at end of stream."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            continue
        out.put(json.loads(stream.read(length)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--log", help="where the server's stderr goes (default: discarded)")
    parser.add_argument("dir")
    parser.add_argument("file")
    parser.add_argument("server", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    server = args.server[1:] if args.server[:1] == ["--"] else args.server
    if not server:
        parser.error("no server command after --")

    root = pathlib.Path(args.dir).resolve()
    path = (root / args.file).resolve()
    uri = path.as_uri()
    log = open(args.log, "wb") if args.log else subprocess.DEVNULL
    proc = subprocess.Popen(server, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
    messages = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, messages), daemon=True).start()

    def wait_for(predicate, deadline):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = messages.get(timeout=left)
            except queue.Empty:
                return None
            if message is None:
                return None
            if "method" in message and "id" in message:
                # A request from the server (progress, configuration): answer it with nothing.
                send(proc, {"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if predicate(message):
                return message

    deadline = time.monotonic() + args.timeout
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}]}})
        if not wait_for(lambda m: m.get("id") == 1, deadline):
            print("error: no answer to initialize", file=sys.stderr)
            return 1
        send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        language = "cuda-cpp" if path.suffix == ".cu" else "cpp"
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": language, "version": 1, "text": path.read_text()}}})
        published = wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri, deadline)
        if not published:
            print(f"error: no diagnostics for {path.name} within {args.timeout:g} s", file=sys.stderr)
            return 1
        diagnostics = published["params"]["diagnostics"]
        print(f"{path.name}: {len(diagnostics)} diagnostics")
        for d in sorted(diagnostics, key=lambda d: (d["range"]["start"]["line"], d["range"]["start"]["character"])):
            start = d["range"]["start"]
            print(f'{start["line"] + 1}:{start["character"] + 1} {d.get("source", "-")} '
                  f'{d.get("code", "-")} {d["message"].splitlines()[0]}')
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
        wait_for(lambda m: m.get("id") == 2, time.monotonic() + 30)
        send(proc, {"jsonrpc": "2.0", "method": "exit", "params": None})
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        return 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    sys.exit(main())
