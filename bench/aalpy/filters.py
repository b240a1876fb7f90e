"""The layers between a learner and the system under learning, each doing one job.

Innermost first (what `stack()` builds):

    system        a Mealy machine simulated step by step (`MealySystem`): reset(), step(i) -> o
    SystemCounter counts what really executes: resets, steps, wait steps
    ErrSink       once `err` is seen, every extension answers `err` without executing
    PrefixTree    answers every prefix of an executed run from memory; extends the
                  current run instead of resetting when the new query continues it
    AskCounter    counts what the learner asked: queries, symbols
    LayeredSUL    adapts the stack to AALpy's SUL interface (query, and pre/step/post)

Every layer from SystemCounter up has the same two-method interface (`Layer`):

    query(word)            outputs of `word` run from the initial state
    extend(prefix, suffix) outputs of `suffix`, continuing the run of `prefix`; the caller
                           promises that the last word it asked this layer about was `prefix`
                           (so nothing below needs to reset)

Only SystemCounter relies on that promise to skip the reset, and it checks it: a broken promise
raises instead of silently miscounting. The empty word is answered with () and executes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Protocol

from aalpy.base import SUL

Symbol = Hashable
Word = tuple

ERR = "err"
WAIT = "wait"


class NonDeterminism(Exception):
    """The system answered a word differently from an earlier execution."""

    def __init__(self, word: Word, before: Word, now: Word) -> None:
        super().__init__(f"non-deterministic answer to {word}: {before} earlier, {now} now")
        self.word, self.before, self.now = word, before, now


class System(Protocol):
    def reset(self) -> None: ...
    def step(self, symbol: Symbol) -> Symbol: ...


class Layer(Protocol):
    def query(self, word: Word) -> Word: ...
    def extend(self, prefix: Word, suffix: Word) -> Word: ...


class MealySystem:
    """A deterministic Mealy machine run as a black box.

    `transitions` maps (state, input) to (output, next state).
    """

    def __init__(self, transitions: dict, initial: Hashable) -> None:
        self.transitions = transitions
        self.initial = initial
        self.state = initial

    def reset(self) -> None:
        self.state = self.initial

    def step(self, symbol: Symbol) -> Symbol:
        output, self.state = self.transitions[(self.state, symbol)]
        return output


class SystemCounter:
    """Innermost layer: runs words on the system and counts real resets, steps and wait steps."""

    def __init__(self, system: System, wait: Symbol = WAIT) -> None:
        self.system = system
        self.wait = wait
        self.resets = 0
        self.steps = 0
        self.waits = 0
        self.current: Word | None = None  # the word the system has run since its last reset

    def _run(self, word: Word) -> Word:
        outputs = []
        for symbol in word:
            self.steps += 1
            self.waits += symbol == self.wait
            outputs.append(self.system.step(symbol))
        return tuple(outputs)

    def query(self, word: Word) -> Word:
        word = tuple(word)
        if not word:
            return ()
        self.system.reset()
        self.resets += 1
        self.current = word
        return self._run(word)

    def extend(self, prefix: Word, suffix: Word) -> Word:
        prefix, suffix = tuple(prefix), tuple(suffix)
        if not prefix:
            return self.query(suffix)
        if prefix != self.current:
            raise AssertionError(f"extend({prefix}) but the system is at {self.current}")
        self.current = prefix + suffix
        return self._run(suffix)


class ErrSink:
    """After an `err` output only `err` follows: such outputs are answered without executing.

    Stops executing a word at its first `err`, and remembers every executed word whose last
    output is its first `err` (with its outputs), so that later words extending it are
    answered without executing anything, not even a reset.
    """

    def __init__(self, inner: Layer, err: Symbol = ERR) -> None:
        self.inner = inner
        self.err = err
        self.err_runs: dict[Word, Word] = {}  # input word ending in its first err -> outputs
        self.run: Word = ()                   # the word last asked through this layer
        self.run_outputs: Word = ()           # ... and its outputs
        self.answered = 0      # calls answered entirely without executing
        self.saved_steps = 0   # symbols answered `err` without executing

    def _known(self, word: Word) -> Word | None:
        """Outputs of `word` if a prefix of it is a known err run, else None."""
        for k in range(1, len(word) + 1):
            outputs = self.err_runs.get(word[:k])
            if outputs is not None:
                return outputs + (self.err,) * (len(word) - k)
        return None

    def query(self, word: Word) -> Word:
        return self.extend((), word)

    def extend(self, prefix: Word, suffix: Word) -> Word:
        prefix, suffix = tuple(prefix), tuple(suffix)
        if not suffix:
            return ()
        if prefix and prefix != self.run:
            raise AssertionError(f"extend({prefix}) but the last word asked was {self.run}")
        word = prefix + suffix
        outputs = self._known(word)
        if outputs is not None:
            self.answered += 1
            self.saved_steps += len(suffix)
        else:
            # `prefix` has no err (else `_known` answered), so the inner layer ran all of it.
            done = list(self.run_outputs if prefix else ())
            run = prefix
            for symbol in suffix:
                if run:
                    (output,) = self.inner.extend(run, (symbol,))
                else:
                    (output,) = self.inner.query((symbol,))
                run += (symbol,)
                done.append(output)
                if output == self.err:
                    self.err_runs[run] = tuple(done)
                    break
            rest = len(word) - len(done)
            self.saved_steps += rest
            outputs = tuple(done) + (self.err,) * rest
        self.run, self.run_outputs = word, outputs
        return outputs[len(prefix):]


class PrefixTree:
    """Answers any prefix of an executed word from memory, with lazy reset.

    A query the tree cannot answer is passed down; if the word last passed down (the current
    run) is a prefix of it, only the missing suffix is passed down as an extension, so no
    reset happens. Outputs that disagree with earlier ones raise `NonDeterminism`.
    """

    def __init__(self, inner: Layer) -> None:
        self.inner = inner
        self.root: dict = {}         # input -> (output, child node)
        self.current: Word = ()      # the word last passed down
        # Per call (query or extend; a step-wise query from AALpy makes one call per symbol):
        self.hits = 0                # answered from the tree
        self.misses = 0              # passed down
        self.extensions = 0          # ... of which as an extension of the current run (no reset)

    def lookup(self, word: Word) -> Word | None:
        node, outputs = self.root, []
        for symbol in word:
            edge = node.get(symbol)
            if edge is None:
                return None
            outputs.append(edge[0])
            node = edge[1]
        return tuple(outputs)

    def _insert(self, word: Word, outputs: Word) -> None:
        node = self.root
        for i, (symbol, output) in enumerate(zip(word, outputs)):
            edge = node.get(symbol)
            if edge is None:
                edge = node[symbol] = (output, {})
            elif edge[0] != output:
                raise NonDeterminism(word[: i + 1], self.lookup(word[: i + 1]), outputs[: i + 1])
            node = edge[1]

    def query(self, word: Word) -> Word:
        word = tuple(word)
        if not word:
            return ()
        known = self.lookup(word)
        if known is not None:
            self.hits += 1
            return known
        self.misses += 1
        run = self.current
        if run and len(run) < len(word) and word[: len(run)] == run:
            self.extensions += 1
            outputs = self.lookup(run) + self.inner.extend(run, word[len(run):])
        else:
            outputs = self.inner.query(word)
        self.current = word
        self._insert(word, outputs)
        return outputs

    def extend(self, prefix: Word, suffix: Word) -> Word:
        prefix, suffix = tuple(prefix), tuple(suffix)
        return self.query(prefix + suffix)[len(prefix):]


class AskCounter:
    """Outermost layer: counts what the learner asked (queries, and symbols in them)."""

    def __init__(self, inner: Layer) -> None:
        self.inner = inner
        self.queries = 0
        self.symbols = 0

    def query(self, word: Word) -> Word:
        word = tuple(word)
        if word:
            self.queries += 1
            self.symbols += len(word)
        return self.inner.query(word)

    def extend(self, prefix: Word, suffix: Word) -> Word:
        suffix = tuple(suffix)
        if not prefix:
            return self.query(suffix)
        self.symbols += len(suffix)
        return self.inner.extend(tuple(prefix), suffix)


class LayeredSUL(SUL):
    """AALpy's SUL interface over a layer stack, so that AALpy's learners and oracles go through it.

    `query(word)` is one asked query. The step-wise protocol that AALpy's equivalence oracles
    use (`pre`, then `step` per symbol, then `post`) becomes one asked query extended symbol by
    symbol, so the prefix tree sees a growing word and extends the current run lazily.
    AALpy's own counters (`num_queries`, `num_steps`) are not used: count with the layers.
    """

    def __init__(self, top: Layer) -> None:
        super().__init__()
        self.top = top
        self.run: Word = ()

    def query(self, word) -> list:
        return list(self.top.query(tuple(word)))

    def pre(self) -> None:
        self.run = ()

    def post(self) -> None:
        self.run = ()

    def step(self, letter):
        if self.run:
            (output,) = self.top.extend(self.run, (letter,))
        else:
            (output,) = self.top.query((letter,))
        self.run += (letter,)
        return output


@dataclass
class Stack:
    """The layers of one learning run, innermost first, and the AALpy SUL on top of them."""

    system: System
    executed: SystemCounter
    err_sink: ErrSink
    tree: PrefixTree
    asked: AskCounter
    sul: LayeredSUL

    def counts(self) -> dict:
        return {
            "executed_queries": self.executed.resets,
            "steps": self.executed.steps,
            "waits": self.executed.waits,
            "asked_queries": self.asked.queries,
            "asked_symbols": self.asked.symbols,
            "tree_hit_calls": self.tree.hits,
            "tree_miss_calls": self.tree.misses,
            "tree_lazy_extensions": self.tree.extensions,
            "err_sink_answered_calls": self.err_sink.answered,
            "err_sink_saved_steps": self.err_sink.saved_steps,
        }


def stack(system: System, wait: Symbol = WAIT, err: Symbol = ERR) -> Stack:
    """Builds system <- SystemCounter <- ErrSink <- PrefixTree <- AskCounter <- LayeredSUL."""
    executed = SystemCounter(system, wait)
    err_sink = ErrSink(executed, err)
    tree = PrefixTree(err_sink)
    asked = AskCounter(tree)
    return Stack(system, executed, err_sink, tree, asked, LayeredSUL(asked))
