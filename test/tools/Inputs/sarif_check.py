"""Checks a cuda-scope SARIF report: the structure GitHub code scanning reads, by assertion, and with
--schema the whole log against the SARIF 2.1.0 JSON schema (needs the jsonschema package).
Prints one line per rule, result and notification, for FileCheck.
USAGE: python3 sarif_check.py [--schema sarif-schema-2.1.0.json] report.sarif"""
import json
import re
import sys

args = sys.argv[1:]
schema = None
if args[0] == "--schema":
    schema, args = args[1], args[2:]
log = json.load(open(args[0]))

if schema:
    import jsonschema
    s = json.load(open(schema))
    cls = jsonschema.validators.validator_for(s)
    errors = sorted(cls(s).iter_errors(log), key=lambda e: list(e.path))
    for e in errors:
        print(f"schema: {'/'.join(map(str, e.path))}: {e.message}")
    print(f"schema: {len(errors)} errors")


def check(cond, what):
    if not cond:
        print(f"FAILED: {what}")
        sys.exit(1)


uri = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^[^:]*$")
check(log.get("version") == "2.1.0", "version is 2.1.0")
check(log.get("$schema", "").endswith("sarif-schema-2.1.0.json"), "$schema names SARIF 2.1.0")
check(isinstance(log.get("runs"), list) and len(log["runs"]) == 1, "one run")
run = log["runs"][0]
driver = run["tool"]["driver"]
check(driver["name"] == "cuda-scope" and driver["version"], "tool.driver has name and version")
rules = driver["rules"]
ids = [r["id"] for r in rules]
check(len(ids) == len(set(ids)), "rule ids are unique")
for r in rules:
    check(r["shortDescription"]["text"], f"{r['id']} has a shortDescription")
    check(uri.match(r.get("helpUri", "")), f"{r['id']} helpUri is a URI")
    print(f"rule {r['id']} help={r.get('helpUri')} short={r['shortDescription']['text']}")
bases = run.get("originalUriBaseIds", {})


def loc(pl):
    art, reg = pl["artifactLocation"], pl["region"]
    check(isinstance(reg["startLine"], int) and reg["startLine"] >= 1, "startLine >= 1")
    check(isinstance(reg.get("startColumn", 1), int) and reg.get("startColumn", 1) >= 1, "startColumn >= 1")
    check(uri.match(art["uri"]), f"{art['uri']} is a URI")
    check("uriBaseId" not in art or art["uriBaseId"] in bases, "uriBaseId is declared")
    base = f"%{art['uriBaseId']}%/" if "uriBaseId" in art else ""
    return f"{base}{art['uri']}:{reg['startLine']}:{reg.get('startColumn')}"


for res in run["results"]:
    check(res["ruleId"] in ids, f"{res['ruleId']} is a declared rule")
    check(rules[res["ruleIndex"]]["id"] == res["ruleId"], "ruleIndex points at the rule")
    check(res["level"] in ("warning", "error", "note"), "level")
    check(res["message"]["text"], "message")
    check(len(res["locations"]) == 1, "one location")
    print(f"result {res['ruleId']} {res['level']} {loc(res['locations'][0]['physicalLocation'])}")
    for rel in res.get("relatedLocations", []):
        check(isinstance(rel["id"], int) and rel["message"]["text"], "related location has id and message")
        print(f"  related {rel['id']} {loc(rel['physicalLocation'])} {rel['message']['text']}")
inv = run["invocations"]
check(len(inv) == 1 and isinstance(inv[0]["executionSuccessful"], bool), "one invocation")
print(f"executionSuccessful {str(inv[0]['executionSuccessful']).lower()}")
for n in inv[0].get("toolExecutionNotifications", []):
    where = loc(n["locations"][0]["physicalLocation"]) if n.get("locations") else "-"
    print(f"notification {n['level']} {where} {n['message']['text']}")
