"""Models in the DOT contract of README.md: strict parsing, validation, and equivalence.

The contract is the subset of DOT that AALpy's line-based loader
(`aalpy.utils.load_automaton_from_file(path, automaton_type='mealy')`) reads correctly. This
module parses it independently and strictly, so that a file that AALpy would misread (it
silently keeps the last of two edges with the same input, turns all-digit symbols into ints,
and treats any line containing `label` as a node) is refused here with a line number.
"""
from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

WAIT, EPS, QUIET, ERR = "wait", "eps", "quiet", "err"
START = "__start0"

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
HEADER_RE = re.compile(rf"^digraph\s+{IDENT}\s*\{{$")
NODE_RE = re.compile(rf'^({IDENT})\s*\[label="({IDENT})"\];?$')
START_NODE_RE = re.compile(r'^__start0\s*\[label=""\s*,\s*shape=none\];?$')
START_EDGE_RE = re.compile(rf'^__start0\s*->\s*({IDENT})(?:\s*\[label=""\])?;?$')
EDGE_RE = re.compile(rf'^({IDENT})\s*->\s*({IDENT})\s*\[label="({IDENT})/({IDENT})"\];?$')


class ContractError(ValueError):
    pass


@dataclass
class Model:
    """A deterministic, complete Mealy machine of a synchronous closure."""

    name: str
    initial: str
    states: list[str]
    inputs: list[str]
    # (state, input) -> (output, next state)
    transitions: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def run(self, word, state: str | None = None) -> tuple:
        state = self.initial if state is None else state
        outputs = []
        for symbol in word:
            output, state = self.transitions[(state, symbol)]
            outputs.append(output)
        return tuple(outputs)

    def minimal_size(self) -> int:
        """Number of states after merging equivalent ones (Moore-style partition refinement)."""
        block = {s: tuple(self.transitions[(s, i)][0] for i in self.inputs) for s in self.states}
        while True:
            refined = {s: (block[s],) + tuple(block[self.transitions[(s, i)][1]] for i in self.inputs)
                       for s in self.states}
            if len(set(refined.values())) == len(set(block.values())):
                return len(set(block.values()))
            block = refined


def parse_dot(path: str | Path) -> Model:
    """Parses and validates one contract file; raises ContractError naming the line."""
    path = Path(path)
    lines = path.read_text().splitlines()
    states: list[str] = []
    initial = None
    transitions: dict[tuple[str, str], tuple[str, str]] = {}
    edges: list[tuple[int, str, str, str, str]] = []
    name = None
    closed = False

    def fail(n: int, why: str) -> None:
        raise ContractError(f"{path}:{n}: {why}")

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if closed:
            fail(n, "text after the closing brace")
        if name is None:
            m = HEADER_RE.match(line)
            if not m:
                fail(n, "expected `digraph NAME {` first")
            name = line.split()[1].rstrip("{")
            continue
        if line == "}":
            closed = True
            continue
        if START_NODE_RE.match(line):
            continue
        if (m := START_EDGE_RE.match(line)):
            if initial is not None:
                fail(n, "second initial marker")
            initial = m.group(1)
            continue
        if (m := NODE_RE.match(line)):
            state, label = m.groups()
            if state == START or state in states:
                fail(n, f"state {state} declared twice or reserved")
            if label != state:
                fail(n, f"node label {label!r} must equal its id {state!r}")
            states.append(state)
            continue
        if (m := EDGE_RE.match(line)):
            edges.append((n, *m.groups()))
            continue
        fail(n, f"not a contract line: {line!r}")

    if not closed:
        raise ContractError(f"{path}: missing closing brace")
    if initial is None or initial not in states:
        raise ContractError(f"{path}: missing or undeclared initial state (`__start0 -> s0`)")
    inputs: list[str] = []
    for n, src, dst, inp, out in edges:
        if src not in states or dst not in states:
            fail(n, f"edge between undeclared states {src} -> {dst}")
        if (src, inp) in transitions:
            fail(n, f"second edge for input {inp} in state {src} (the machine must be deterministic)")
        if inp in (EPS, QUIET, ERR) or out == WAIT:
            fail(n, f"reserved symbol in the wrong place: {inp}/{out}")
        if inp == WAIT and out == EPS:
            fail(n, "wait never answers eps")
        if inp != WAIT and out not in (EPS, ERR):
            fail(n, f"callin {inp} must answer eps or err, not {out}")
        transitions[(src, inp)] = (out, dst)
        if inp not in inputs:
            inputs.append(inp)
    if WAIT not in inputs:
        raise ContractError(f"{path}: the input alphabet has no `wait`")
    model = Model(name, initial, states, inputs, transitions)
    _check_complete_reachable_errsink(path, model)
    return model


def _check_complete_reachable_errsink(path: Path, model: Model) -> None:
    for s in model.states:
        missing = [i for i in model.inputs if (s, i) not in model.transitions]
        if missing:
            raise ContractError(f"{path}: state {s} has no edge for {missing} (must be input-complete)")
    seen, todo = {model.initial}, deque([model.initial])
    while todo:
        s = todo.popleft()
        for i in model.inputs:
            t = model.transitions[(s, i)][1]
            if t not in seen:
                seen.add(t)
                todo.append(t)
    if len(seen) != len(model.states):
        raise ContractError(f"{path}: unreachable states {sorted(set(model.states) - seen)}")
    # After err only err: every err edge enters a state whose edges are all err self-loops.
    for (s, i), (out, t) in model.transitions.items():
        if out == ERR and any(model.transitions[(t, j)] != (ERR, t) for j in model.inputs):
            raise ContractError(f"{path}: {s} -{i}/err-> {t}, but {t} is not an err sink "
                                f"(every input must be `x/err` looping on it)")


def load_sidecar(dot_path: str | Path) -> dict:
    """The JSON next to the DOT file: {"class", "distinguisher_bound", "state_bound"}."""
    side = Path(dot_path).with_suffix(".json")
    data = json.loads(side.read_text())
    for key in ("class", "distinguisher_bound", "state_bound"):
        if key not in data:
            raise ContractError(f"{side}: missing key {key!r}")
    return data


def shortest_difference(run_a, run_b, initial_a, initial_b, inputs) -> tuple | None:
    """Product BFS over two deterministic Mealy machines given as step functions.

    `run_x(state, symbol) -> (output, next)`. Returns a shortest input word on which the
    outputs differ, or None if the machines are equivalent.
    """
    start = (initial_a, initial_b)
    parent: dict = {start: None}  # pair -> (previous pair, symbol), for the path back

    def word_to(pair) -> tuple:
        word = []
        while parent[pair] is not None:
            pair, symbol = parent[pair]
            word.append(symbol)
        return tuple(reversed(word))

    todo = deque([start])
    while todo:
        pair = todo.popleft()
        for symbol in inputs:
            out_a, next_a = run_a(pair[0], symbol)
            out_b, next_b = run_b(pair[1], symbol)
            if out_a != out_b:
                return word_to(pair) + (symbol,)
            if (next_a, next_b) not in parent:
                parent[(next_a, next_b)] = (pair, symbol)
                todo.append((next_a, next_b))
    return None


def equivalent_to_aalpy(model: Model, mealy) -> tuple | None:
    """Shortest word where `model` and an AALpy MealyMachine differ, or None if equivalent."""
    return shortest_difference(
        lambda s, i: model.transitions[(s, i)],
        lambda s, i: (s.output_fun[i], s.transitions[i]),
        model.initial, mealy.initial_state, model.inputs)


def check_aalpy_reads_the_same(model: Model, path: str | Path):
    """Loads the file with AALpy and checks it has exactly our transitions; returns AALpy's machine."""
    from aalpy.utils import load_automaton_from_file

    mealy = load_automaton_from_file(str(path), automaton_type="mealy")
    by_id = {s.state_id: s for s in mealy.states}
    if mealy.initial_state.state_id != model.initial or set(by_id) != set(model.states):
        raise ContractError(f"{path}: AALpy read different states or initial state")
    for (s, i), (out, t) in model.transitions.items():
        st = by_id[s]
        if st.output_fun.get(i) != out or st.transitions[i].state_id != t:
            raise ContractError(f"{path}: AALpy read {s} -{i}-> differently")
    return mealy
