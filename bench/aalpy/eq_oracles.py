"""Equivalence oracles used beside AALpy's own: DroidStar's distinguisher-bound oracle, and a
wrapper that counts equivalence rounds and what they execute."""
from __future__ import annotations

from collections import deque
from itertools import product

from aalpy.base import Oracle


class DistinguisherBoundEqOracle(Oracle):
    """Algorithm 2 of "Learning Asynchronous Typestates" (the Starling paper, §4.3), with both optimisations.

    For every hypothesis transition q -i-> q' it checks the output of R(q)·i, then that R(q)·i
    and R(q') agree on every suffix of length <= bound (R = shortest access words). If the
    target has distinguisher bound <= `bound` (every two states differ on a word of that
    length), "no counterexample" means the hypothesis is equivalent (Theorem 4).

    Optimisations (§4.3): (a) a `wait`/`quiet` self-loop is not checked for fidelity, which
    assumes that time passing quietly never changes the state (false for MediaRecorder, so
    typestar's learner keeps it off by default; `quiet_is_noop=False` checks those loops too,
    typestar's guarantee); (b) a transition that outputs `err` is not checked for fidelity
    (only err follows).

    Query order: for one transition, the words with the longest suffixes are asked first, so
    that with a prefix tree below, every shorter suffix is answered from the tree; then the
    suffixes are compared shortest first, as in the paper. This asks more than the paper only
    in the round that finds a counterexample.
    """

    def __init__(self, alphabet: list, sul, bound: int, wait="wait", quiet="quiet", err="err",
                 quiet_is_noop=True) -> None:
        super().__init__(alphabet, sul)
        self.bound = bound
        self.quiet_is_noop = quiet_is_noop
        self.wait, self.quiet, self.err = wait, quiet, err
        self.longest = list(product(alphabet, repeat=bound))
        self.suffixes = [s for k in range(1, bound + 1) for s in product(alphabet, repeat=k)]

    def _access_words(self, hypothesis) -> dict:
        access = {hypothesis.initial_state: ()}
        todo = deque([hypothesis.initial_state])
        while todo:
            q = todo.popleft()
            for i in self.alphabet:
                t = q.transitions[i]
                if t not in access:
                    access[t] = access[q] + (i,)
                    todo.append(t)
        return access

    def _outputs(self, word: tuple) -> tuple:
        self.num_queries += 1
        self.num_steps += len(word)
        return tuple(self.sul.query(word))

    def find_cex(self, hypothesis):
        access = self._access_words(hypothesis)
        for q, r in access.items():
            for i in self.alphabet:
                word = r + (i,)
                if self._outputs(word) != tuple(hypothesis.execute_sequence(hypothesis.initial_state, word)):
                    return word
                out, q2 = q.output_fun[i], q.transitions[i]
                quiet_loop = i == self.wait and out == self.quiet and q2 is q
                if out == self.err or (self.quiet_is_noop and quiet_loop):
                    continue
                r2 = access[q2]
                for s in self.longest:
                    self._outputs(word + s)
                    self._outputs(r2 + s)
                for s in self.suffixes:
                    if self._outputs(word + s)[-len(s):] != self._outputs(r2 + s)[-len(s):]:
                        cex = word + s
                        hyp = tuple(hypothesis.execute_sequence(hypothesis.initial_state, cex))
                        return cex if hyp != self._outputs(cex) else r2 + s
        return None


class CountingEqOracle(Oracle):
    """Delegates to `inner`, counting rounds and the executions that happen inside them.

    `snapshot()` returns the executed counters of the layer stack (see filters.Stack.counts).
    """

    def __init__(self, inner: Oracle, snapshot) -> None:
        super().__init__(inner.alphabet, inner.sul)
        self.inner = inner
        self.snapshot = snapshot
        self.rounds = 0
        self.executed: dict = {}

    def find_cex(self, hypothesis):
        self.rounds += 1
        before = self.snapshot()
        cex = self.inner.find_cex(hypothesis)
        after = self.snapshot()
        for key in after:
            self.executed[key] = self.executed.get(key, 0) + after[key] - before[key]
        return cex
