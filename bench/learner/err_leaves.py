#!/usr/bin/env python3
"""A lower bound on the runs of any chained check (`--suite chained`, `chained-known`) of a
Table 1 model under distinguisher bound 2, beside DroidStar's device runs.

Every transition `q -i-> q'` that is not on the access tree needs every word `i w1 w2` checked
after a proven word reaching `q`.
A run stops at its first `err`, so it holds at most one window `i w1 w2` whose `w2` answers
`err` there: each such (q, i, w1, w2) costs its own run, learning's runs included.
The access tree is the model's breadth-first one (inputs in the model's order); the
learner's may differ, which changes which transitions are free, not their number.

Usage: bench/learner/err_leaves.py (after bench/learner/run.sh and bench/learner/droidstar.sh).
"""
import os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
models = os.path.join(root, "bench/work/learner-models")
table = os.path.join(root, "bench/results/learner-droidstar.md")
if not os.path.isdir(models) or not os.path.isfile(table):
    sys.exit("err_leaves.py: run bench/learner/run.sh and bench/learner/droidstar.sh first")
device = {}
for line in open(table):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) > 2 and cells[1].isdigit():
        device[cells[0]] = int(cells[1])
print("| class | live states | inputs | transitions off the tree | err windows (lower bound) | DroidStar device runs | bound / DroidStar |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name, runs in device.items():
    delta, states, inputs = {}, [], []
    for line in open(os.path.join(models, name + ".dot")):
        match = re.match(r'\s*(\w+) -> (\w+) \[label="(.*)/(.*)"\]', line)
        if match:
            source, target, symbol, output = match.groups()
            delta[(source, symbol)] = (target, output)
            if source not in states:
                states.append(source)
            if symbol not in inputs:
                inputs.append(symbol)
    access, queue = {states[0]: []}, [states[0]]
    while queue:
        state = queue.pop(0)
        for symbol in inputs:
            target, output = delta[(state, symbol)]
            if output != "err" and target not in access:
                access[target] = access[state] + [symbol]
                queue.append(target)
    off_tree, windows = 0, 0
    for state in access:
        for symbol in inputs:
            target, output = delta[(state, symbol)]
            if output == "err" or access.get(target) == access[state] + [symbol]:
                continue
            off_tree += 1
            for first in inputs:
                middle, answer = delta[(target, first)]
                if answer != "err":
                    windows += sum(delta[(middle, last)][1] == "err" for last in inputs)
    print(f"| {name} | {len(access)} | {len(inputs)} | {off_tree} | {windows} | {runs} | {windows / runs:.2f} |")
