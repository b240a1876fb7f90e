#!/usr/bin/env python3
"""DroidStar's learner, re-implemented for the benchmark, to count the device runs it needs.

Written from the DroidStar paper (Radhakrishna et al., ICSE 2018: L* over observation tables whose
rows are states, checked by Algorithm 2, the distinguisher-bounded equivalence check) and the
public Java sources of github.com/cuplv/droidstar (Starling's `LStar`, `MembershipOracle` and
`DistinguisherBoundedEquivalenceOracle`), whose query order decides the counts:
- the inputs are the callins, then DroidStar's wait (`delta`) twice: `LearningPurpose.inputSet()`
  appends it and `Static.inputSet()` appends it again, so the first columns hold `[delta]` twice
  and the words Algorithm 2 tries use it twice per position;
- a row's successors are kept per distinct input, in the order first seen;
- a word is run unless it is cached or a proper non-empty prefix of it is cached as an error;
- Algorithm 2 tries every word up to the bound, the first symbol varying fastest, on the
  transitions in the order of the rows and their inputs, and returns the first word that tells a
  transition's target apart from its source row's access word followed by the input.
No learning-purpose filter is applied: every word that is run is a run on the device.

Usage: droidstar_learner.py MODEL.dot [BOUND]
MODEL.dot follows the contract of bench/aalpy/README.md (`wait` is DroidStar's `delta`, output
`err` refuses the whole word). Prints one JSON object:
  asked     every question of a prefix and a suffix (`MembershipOracle.numQueries`),
  runs      words run on the device (`numRealQueries`, one reset each),
  rounds    equivalence checks (Algorithm 2 calls),
  states    the non-error states learned,
  exact     whether the result equals the model.
"""
import json
import re
import sys
from collections import deque

WAIT = "delta"
# What a refused word answers at each of its positions.
REFUSED = "<refused>"


class Model:
    """A Mealy machine read from the benchmark's DOT export; a word it refuses has no outputs."""

    EDGE = re.compile(r'\s*(\w+) -> (\w+) \[label="(\w+)/(\w+)"\];')
    START = re.compile(r"\s*__start0 -> (\w+)")

    def __init__(self, path):
        self.step, self.start, self.callins = {}, None, []
        try:
            lines = open(path).read().splitlines()
        except OSError as error:
            sys.exit(f"droidstar_learner.py: cannot read the model {path}: {error.strerror}")
        for line in lines:
            edge = self.EDGE.match(line)
            if edge:
                source, target, symbol, output = edge.groups()
                symbol = WAIT if symbol == "wait" else symbol
                self.step[source, symbol] = None if output == "err" else (output, target)
                if symbol != WAIT and symbol not in self.callins:
                    self.callins.append(symbol)
            start = self.START.match(line)
            if start:
                self.start = start.group(1)
        if self.start is None:
            sys.exit(f"droidstar_learner.py: {path}: no `__start0 -> STATE` line")

    def outputs(self, word):
        """The outputs of `word` from the start, or None when the model refuses it."""
        state, answer = self.start, []
        for symbol in word:
            step = self.step.get((state, symbol))
            if step is None:
                return None
            output, state = step
            answer.append(output)
        return tuple(answer)


class Device:
    """DroidStar's membership oracle in front of the model: a cache, and counters."""

    def __init__(self, model):
        self.model = model
        self.known = {}
        self.asked = 0
        self.runs = 0

    def word(self, word):
        """The outputs of a whole word, None when refused; runs it only when nothing known answers."""
        if word in self.known:
            return self.known[word]
        if any(self.known.get(word[:end], ()) is None for end in range(1, len(word))):
            return None
        self.runs += 1
        self.known[word] = self.model.outputs(word)
        return self.known[word]

    def suffix(self, prefix, suffix):
        """The outputs of `suffix` after `prefix`, one `REFUSED` per symbol when refused."""
        self.asked += 1
        answer = self.word(prefix + suffix)
        if answer is None:
            return (REFUSED,) * len(suffix)
        return answer[len(prefix):]


class Row:
    """A state of the table: its access word, its answers to the columns (None: an error state),
    and its successors' answers per distinct input (None: the input is refused there)."""

    def __init__(self, access, answers, learner):
        self.access, self.answers = access, answers
        self.after = {}
        for symbol in learner.inputs:
            if symbol not in self.after:
                refused = learner.device.word(access + (symbol,)) is None
                self.after[symbol] = None if refused else []
        learner.refresh(self)


class Learner:
    def __init__(self, device, callins, bound):
        self.device = device
        self.inputs = list(callins) + [WAIT, WAIT]
        self.columns = [(symbol,) for symbol in self.inputs]
        self.rows = []
        self.rounds = 0
        self.tests = []
        shorter = [()]
        for _ in range(bound):
            shorter = [(symbol,) + rest for rest in shorter for symbol in self.inputs]
            self.tests += shorter

    def fill(self, access, answers):
        """Asks `access` the columns `answers` does not hold yet."""
        if answers is not None:
            answers.extend(self.device.suffix(access, column) for column in self.columns[len(answers):])

    def refresh(self, row):
        self.fill(row.access, row.answers)
        for symbol, answers in row.after.items():
            self.fill(row.access + (symbol,), answers)

    def row_of(self, answers):
        return next((row for row in self.rows if row.answers == answers), None)

    def close(self):
        """Adds a row for the first successor no row answers like, until there is none."""
        while True:
            missing = next(((row, symbol, answers) for row in self.rows
                            for symbol, answers in row.after.items() if self.row_of(answers) is None), None)
            if missing is None:
                return
            row, symbol, answers = missing
            copy = None if answers is None else list(answers)
            self.rows.append(Row(row.access + (symbol,), copy, self))

    def distinguisher(self):
        """Algorithm 2: the first test word telling a transition apart from its target, or None."""
        self.rounds += 1
        for row in self.rows:
            for symbol, answers in row.after.items():
                source, target = row.access + (symbol,), self.row_of(answers).access
                source_refused = self.device.word(source) is None
                target_refused = self.device.word(target) is None
                if (source_refused and target_refused) or source == target:
                    continue
                if target_refused and symbol == WAIT:
                    continue
                for test in self.tests:
                    if self.device.suffix(source, test) != self.device.suffix(target, test):
                        return test
        return None

    def learn(self):
        self.rows.append(Row((), [], self))
        while True:
            self.close()
            test = self.distinguisher()
            if test is None:
                return
            if test in self.columns:
                raise AssertionError(f"Algorithm 2 returned a column the table has: {test}")
            self.columns.append(test)
            for row in self.rows:
                self.refresh(row)

    def output(self, row, symbol):
        """What the learned machine answers to `symbol` in `row`, and the row it moves to."""
        if row.answers is None:
            return REFUSED, row
        target = self.row_of(row.after[symbol])
        if target.answers is None:
            return REFUSED, target
        return row.answers[self.columns.index((symbol,))][0], target


def exact(learner, model):
    """Whether the learned machine and the model answer every word alike (refusals included)."""
    def model_step(state, symbol):
        step = None if state is None else model.step.get((state, symbol))
        return (REFUSED, None) if step is None else step

    first = (0, model.start)
    seen, todo = {first}, deque([first])
    while todo:
        index, state = todo.popleft()
        for symbol in dict.fromkeys(learner.inputs):
            ours, row = learner.output(learner.rows[index], symbol)
            theirs, target = model_step(state, symbol)
            if ours != theirs:
                return False
            pair = (learner.rows.index(row), target)
            if pair not in seen:
                seen.add(pair)
                todo.append(pair)
    return True


def learn(path, bound=2):
    model = Model(path)
    device = Device(model)
    learner = Learner(device, model.callins, bound)
    learner.learn()
    return {"asked": device.asked, "runs": device.runs, "rounds": learner.rounds,
            "states": sum(row.answers is not None for row in learner.rows),
            "exact": exact(learner, model)}


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: droidstar_learner.py MODEL.dot [BOUND]")
    print(json.dumps(learn(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 2)))
