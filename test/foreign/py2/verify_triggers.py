#!/usr/bin/env python3
"""Runs every deviation trigger against a conformant server and against a server with only that
deviation switched on; exits 0 when every trigger shows a difference.
`python3 verify_triggers.py --write` also regenerates DEVIATIONS.md and IDS.txt."""
import json
import os
import subprocess
import sys
import tempfile

from deviations_src import DEVS

HERE = os.path.dirname(os.path.abspath(__file__))


def start(devs):
    kf = tempfile.mktemp(suffix=".json")
    env = dict(os.environ)
    env.pop("DEVIATIONS", None)
    if devs:
        env["DEVIATIONS"] = devs
    env.update({"PORT": "0", "KEYS_FILE": kf})
    p = subprocess.Popen([sys.executable, "server.py"], cwd=HERE, env=env, stdout=subprocess.PIPE)
    base = p.stdout.readline().decode().strip().split(" ", 1)[1]
    keys = json.load(open(kf))
    os.unlink(kf)
    return p, base, keys


def run(cmd, base, keys):
    env = dict(os.environ)
    env["BASE"] = base
    env.update(keys)
    r = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, timeout=60)
    return (r.stdout.decode().strip() + (" [stderr: %s]" % r.stderr.decode().strip() if r.stderr.strip() else "")).strip()


def write_docs():
    out = ["# Planted deviations", "",
           "Each deviation is off unless its id is listed in `DEVIATIONS` (comma-separated, or `all`).", "",
           "Trigger set-up (server started with `KEYS_FILE=keys.json`):", "", "```bash",
           "export BASE=http://127.0.0.1:<port>",
           "eval \"$(jq -r 'to_entries[] | \"export \\(.key)=\\(.value|@sh)\"' keys.json)\"", "```", "",
           "Run each trigger once against `python3 server.py` and once against `DEVIATIONS=<id> python3 server.py`. "
           "`python3 verify_triggers.py` does exactly that for all of them.", ""]
    for did, lvl, sec, sentence, what, cmd, expect in DEVS:
        out += ["## %s (%s)" % (did, lvl), "", "- Spec section: %s" % sec, "- Sentence broken: \"%s\"" % sentence,
                "- Deployment instead: %s" % what, "- Trigger:", "", "```bash", cmd, "```", "",
                "- Expected: %s" % expect, ""]
    open(os.path.join(HERE, "DEVIATIONS.md"), "w").write("\n".join(out))
    open(os.path.join(HERE, "IDS.txt"), "w").write("".join("%s %s\n" % (d[0], d[1]) for d in DEVS))


def main():
    if "--write" in sys.argv:
        write_docs()
    only = [a for a in sys.argv[1:] if a.startswith("D")]
    p0, b0, k0 = start(None)
    bad = 0
    try:
        for did, lvl, sec, sentence, what, cmd, expect in DEVS:
            if only and did not in only:
                continue
            p1, b1, k1 = start(did)
            try:
                a = run(cmd, b0, k0)
                b = run(cmd, b1, k1)
            finally:
                p1.terminate()
                p1.wait(10)
            ok = a != b and "stderr" not in a and "stderr" not in b
            bad += 0 if ok else 1
            print("%s %-4s conformant=%r  deviated=%r" % (did, "OK" if ok else "BAD", a[:120], b[:120]))
    finally:
        p0.terminate()
        p0.wait(10)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
