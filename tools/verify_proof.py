#!/usr/bin/env python3
"""Independent verifier of Muntly's proof of liabilities, format muntly-liabilities-2.

Written from docs/proof-format.md alone, with Python's standard library only, so that nobody has
to trust Muntly's own code (domain/liabilities.ts) to check what Muntly publishes:

    python3 tools/verify_proof.py SNAPSHOT.json [MY-PROOF.json]   check a snapshot, and your proof
    python3 tools/verify_proof.py --vectors docs/proof-vectors.json  check the format's test vectors
    python3 tools/verify_proof.py --json SNAPSHOT.json [MY-PROOF.json]  the same, as JSON

SNAPSHOT.json is /proof/latest.json or /proof/<id>.json (a file or an http(s) URL); MY-PROOF.json
is one snapshot of GET /api/wallet/proof as the wallet's proof page saves it.
Exit code 0 when everything holds, 1 when something does not, 2 when a file cannot be read.
"""
import hashlib
import json
import re
import sys
import urllib.request

FORMAT = "muntly-liabilities-2"
MIN_LEAF_COUNT = 4096
MAX_AMOUNT = (1 << 128) - 1
HEX32 = re.compile(r"^[0-9a-f]{64}$")
AMOUNT = re.compile(r"^(0|[1-9][0-9]{0,38})$")
CURRENCY = re.compile(r"^[A-Z0-9]{1,16}$")


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def amount_bytes(value: int) -> bytes:
    if value < 0 or value > MAX_AMOUNT:
        raise ValueError("amount out of range: %d" % value)
    return value.to_bytes(16, "big")


def parse_amount(text):
    if not isinstance(text, str) or not AMOUNT.match(text):
        return None
    value = int(text)
    return value if value <= MAX_AMOUNT else None


def owner_commitment(owner: str, nonce: bytes) -> bytes:
    data = owner.encode("utf-8")
    if not 1 <= len(data) <= 255 or len(nonce) != 32:
        raise ValueError("an owner id is 1 to 255 bytes and a nonce 32 bytes")
    return sha256(b"\x02" + bytes([len(data)]) + data + nonce)


def leaf_hash(currency: str, index: int, value: int, commitment: bytes) -> bytes:
    if not CURRENCY.match(currency):
        raise ValueError("not a currency code: %s" % currency)
    if not 0 <= index <= 0xFFFFFFFF or len(commitment) != 32:
        raise ValueError("leaf index out of range or commitment not 32 bytes")
    code = currency.encode("ascii")
    return sha256(b"\x00" + bytes([len(code)]) + code + index.to_bytes(4, "big") + amount_bytes(value) + commitment)


def parent(left, right):
    (lh, ls), (rh, rs) = left, right
    return sha256(b"\x01" + lh + amount_bytes(ls) + rh + amount_bytes(rs)), ls + rs


def is_power_of_two(n) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n > 0 and n & (n - 1) == 0


def statement(snapshot) -> str:
    lines = [FORMAT, str(snapshot["snapshotId"]), snapshot["takenAt"]]
    for tree in sorted(snapshot["trees"], key=lambda t: t["currency"].encode("ascii")):
        lines.append("%s %d %d %s %s" % (tree["currency"], tree["decimals"], tree["leafCount"], tree["root"]["hash"], tree["root"]["sum"]))
    return "".join(line + "\n" for line in lines)


def check_tree(tree):
    problems = []
    currency = tree.get("currency") if isinstance(tree, dict) else None
    if not isinstance(currency, str) or not CURRENCY.match(currency):
        return "?", ["not a currency code: %r" % (currency,)], None
    decimals = tree.get("decimals")
    if not isinstance(decimals, int) or isinstance(decimals, bool) or not 0 <= decimals <= 18:
        problems.append("%s: decimals must be 0 to 18" % currency)
    count = tree.get("leafCount")
    if not is_power_of_two(count) or count < MIN_LEAF_COUNT:
        problems.append("%s: %s leaves is not a power of two of at least %d" % (currency, count, MIN_LEAF_COUNT))
    root = tree.get("root") if isinstance(tree.get("root"), dict) else {}
    if not isinstance(root.get("hash"), str) or not HEX32.match(root["hash"]):
        problems.append("%s: the root hash is not 32 bytes of hex" % currency)
    total = parse_amount(root.get("sum"))
    if total is None:
        problems.append("%s: the total is not a non-negative integer below 2^128" % currency)
    return currency, problems, total


def check_snapshot(snapshot):
    """(ok, digest or None, {currency: total}, problems)"""
    problems = []
    if not isinstance(snapshot, dict) or snapshot.get("format") != FORMAT:
        return False, None, {}, ["not a %s file" % FORMAT]
    sid = snapshot.get("snapshotId")
    if not isinstance(sid, int) or isinstance(sid, bool) or sid < 1:
        problems.append("the snapshot id is not a positive integer")
    if not isinstance(snapshot.get("takenAt"), str):
        problems.append("the snapshot has no instant")
    trees = snapshot.get("trees")
    if not isinstance(trees, list):
        return False, None, {}, problems + ["the snapshot has no list of trees"]
    totals = {}
    for tree in trees:
        currency, tree_problems, total = check_tree(tree)
        problems += tree_problems
        if currency in totals:
            problems.append("a currency has two trees")
        totals[currency] = total
    ok = not problems
    digest = hashlib.sha256(statement(snapshot).encode("utf-8")).hexdigest() if ok else None
    return ok, digest, totals, problems


def check_inclusion(proof, owner, nonce_hex, tree):
    """(ok, amount, problems) for one currency of an owner's proof against the published tree."""
    problems = []
    root = tree["root"]
    if proof.get("root") != {"hash": root["hash"], "sum": root["sum"]} or proof.get("leafCount") != tree["leafCount"] or proof.get("currency") != tree["currency"]:
        problems.append("the root of the proof is not the published root")
    if not isinstance(nonce_hex, str) or not HEX32.match(nonce_hex):
        return False, 0, problems + ["the nonce is not 32 bytes of hex"]
    try:
        commitment = owner_commitment(owner, bytes.fromhex(nonce_hex))
    except (ValueError, AttributeError) as error:
        return False, 0, problems + [str(error)]
    count = tree["leafCount"]
    steps = count.bit_length() - 1
    leaves = proof.get("leaves") or []
    if not leaves:
        problems.append("the proof has no leaves")
    indexes = [leaf.get("index") for leaf in leaves]
    if len(set(indexes)) != len(indexes):
        problems.append("a place is given twice")
    amount = 0
    for leaf in leaves:
        index, value, path = leaf.get("index"), parse_amount(leaf.get("value")), leaf.get("path")
        if value is None:
            problems.append("leaf %s: the amount is not a non-negative integer" % index)
            continue
        amount += value
        if not isinstance(index, int) or not 0 <= index < count:
            problems.append("leaf %s is not a place of a tree of %d leaves" % (index, count))
            continue
        if not isinstance(path, list) or len(path) != steps:
            problems.append("leaf %d: a tree of %d leaves needs a path of %d steps" % (index, count, steps))
            continue
        try:
            node = (leaf_hash(proof["currency"], index, value, commitment), value)
            position = index
            for step in path:
                if not (isinstance(step, list) and len(step) == 2 and isinstance(step[0], str) and HEX32.match(step[0]) and parse_amount(step[1]) is not None):
                    raise ValueError("a sibling is not a hash with a non-negative integer amount")
                sibling = (bytes.fromhex(step[0]), parse_amount(step[1]))
                node = parent(node, sibling) if position % 2 == 0 else parent(sibling, node)
                position >>= 1
        except ValueError as error:
            problems.append("leaf %d: %s" % (index, error))
            continue
        if node[0].hex() != root["hash"] or str(node[1]) != root["sum"]:
            problems.append("leaf %d: the path does not lead to the published root" % index)
    return not problems, amount, problems


def check(snapshot, my_proof=None):
    ok, digest, totals, problems = check_snapshot(snapshot)
    result = {"ok": ok, "digest": digest, "totals": {c: (None if t is None else str(t)) for c, t in totals.items()}, "problems": problems, "proofs": {}}
    if my_proof is not None and ok:
        if my_proof.get("snapshotId") != snapshot["snapshotId"]:
            result["problems"].append("the proof is of snapshot %s, not %s" % (my_proof.get("snapshotId"), snapshot["snapshotId"]))
            result["ok"] = False
        for mine in my_proof.get("currencies") or []:
            tree = next((t for t in snapshot["trees"] if t["currency"] == mine.get("currency")), None)
            if tree is None:
                result["proofs"][str(mine.get("currency"))] = {"ok": False, "amount": "0", "problems": ["the snapshot has no tree of this currency"]}
                result["ok"] = False
                continue
            proof_ok, amount, proof_problems = check_inclusion(mine, my_proof.get("owner"), my_proof.get("nonce"), tree)
            result["proofs"][tree["currency"]] = {"ok": proof_ok, "amount": str(amount), "problems": proof_problems}
            result["ok"] = result["ok"] and proof_ok
    return result


def check_vectors(vectors):
    failures = []
    for v in vectors["commitments"]:
        if owner_commitment(v["owner"], bytes.fromhex(v["nonce"])).hex() != v["commitment"]:
            failures.append("commitment of %s" % v["owner"])
    for v in vectors["leaves"]:
        if leaf_hash(v["currency"], v["index"], int(v["amount"]), bytes.fromhex(v["commitment"])).hex() != v["hash"]:
            failures.append("leaf %s %d" % (v["currency"], v["index"]))
    for v in vectors["nodes"]:
        h, s = parent((bytes.fromhex(v["left"][0]), int(v["left"][1])), (bytes.fromhex(v["right"][0]), int(v["right"][1])))
        if [h.hex(), str(s)] != v["parent"]:
            failures.append("node %s" % v["parent"][0])
    for v in vectors["snapshots"]:
        if statement(v["snapshot"]) != v["statement"] or check_snapshot(v["snapshot"])[1] != v["digest"]:
            failures.append("snapshot %d" % v["snapshot"]["snapshotId"])
    trees = vectors["snapshots"][0]["snapshot"]["trees"]
    for v in vectors["proofs"]:
        tree = next(t for t in trees if t["currency"] == v["proof"]["currency"])
        if check_inclusion(v["proof"], v["owner"], v["nonce"], tree)[0] != v["valid"]:
            failures.append("proof: %s" % v["about"])
    return failures


def load(source):
    if re.match(r"^https?://", source):
        with urllib.request.urlopen(source) as response:
            return json.loads(response.read().decode("utf-8"))
    with open(source, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv):
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    try:
        if args[:1] == ["--vectors"] and len(args) == 2:
            failures = check_vectors(load(args[1]))
            for failure in failures:
                print("FAIL  %s" % failure)
            print("All test vectors hold." if not failures else "Some test vectors do NOT hold.")
            return 0 if not failures else 1
        if len(args) not in (1, 2):
            print(__doc__.strip().splitlines()[0], file=sys.stderr)
            print("Usage: verify_proof.py [--json] SNAPSHOT.json [MY-PROOF.json] | --vectors FILE", file=sys.stderr)
            return 2
        snapshot = load(args[0])
        my_proof = load(args[1]) if len(args) == 2 else None
    except (OSError, ValueError) as error:
        print("Cannot read: %s" % error, file=sys.stderr)
        return 2
    result = check(snapshot, my_proof)
    if as_json:
        print(json.dumps(result, sort_keys=True))
    else:
        print("Snapshot %s taken %s" % (snapshot.get("snapshotId", "?"), snapshot.get("takenAt", "?")))
        for problem in result["problems"]:
            print("FAIL  %s" % problem)
        if result["digest"]:
            print("ok    digest %s" % result["digest"])
        for currency, total in result["totals"].items():
            print("ok    %s: owed %s minor units" % (currency, total))
        for currency, proof in result["proofs"].items():
            print("%s  %s: your leaves under the root, owed %s minor units" % ("ok  " if proof["ok"] else "FAIL", currency, proof["amount"]))
            for problem in proof["problems"]:
                print("        %s" % problem)
        print("The snapshot holds." if result["ok"] else "The snapshot does NOT hold.")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
