"""Tests for the filter layers, the contract parser and the AALpy glue, on tiny hand-written machines."""
from __future__ import annotations

import textwrap
import unittest
from pathlib import Path
from tempfile import TemporaryDirectory

import dotmodel
import filters
from filters import ERR, NonDeterminism

HERE = Path(__file__).resolve().parent

# A small closure: `a` starts (not twice), `b` resets the object, `x` is always disabled;
# after `a`, a wait delivers the callback `cb` and leads to C, where waits are quiet.
#   A: a/eps->B  b/eps->A  x/err->E  wait/quiet->A
#   B: a/err->E  b/eps->A  x/err->E  wait/cb->C
#   C: a/err->E  b/eps->A  x/err->E  wait/quiet->C
#   E: everything/err->E
TOY = {}
for state, row in {
    "A": {"a": ("eps", "B"), "b": ("eps", "A"), "x": (ERR, "E"), "wait": ("quiet", "A")},
    "B": {"a": (ERR, "E"), "b": ("eps", "A"), "x": (ERR, "E"), "wait": ("cb", "C")},
    "C": {"a": (ERR, "E"), "b": ("eps", "A"), "x": (ERR, "E"), "wait": ("quiet", "C")},
    "E": {i: (ERR, "E") for i in ("a", "b", "x", "wait")},
}.items():
    for symbol, edge in row.items():
        TOY[(state, symbol)] = edge


def toy_stack():
    return filters.stack(filters.MealySystem(TOY, "A"))


def counts(s):
    return (s.executed.resets, s.executed.steps)


class PrefixTreeTest(unittest.TestCase):
    def test_prefixes_of_an_executed_word_are_answered_without_executing(self):
        s = toy_stack()
        self.assertEqual(s.asked.query(("a", "wait", "b")), ("eps", "cb", "eps"))
        self.assertEqual(counts(s), (1, 3))
        self.assertEqual(s.asked.query(("a", "wait")), ("eps", "cb"))
        self.assertEqual(s.asked.query(("a",)), ("eps",))
        self.assertEqual(s.asked.query(("a", "wait", "b")), ("eps", "cb", "eps"))
        self.assertEqual(counts(s), (1, 3))
        self.assertEqual(s.asked.queries, 4)
        self.assertEqual(s.tree.hits, 3)

    def test_lazy_reset_extends_the_current_run(self):
        s = toy_stack()
        s.asked.query(("a",))
        s.asked.query(("a", "wait"))       # continues the run of ("a",): no reset
        s.asked.query(("a", "wait", "wait"))
        self.assertEqual(counts(s), (1, 3))
        self.assertEqual(s.tree.extensions, 2)

    def test_a_word_that_does_not_continue_the_current_run_resets(self):
        s = toy_stack()
        s.asked.query(("a", "b"))
        s.asked.query(("b",))                 # a prefix? no: a new word, executed from reset
        self.assertEqual(counts(s), (2, 3))
        s.asked.query(("a", "b", "a"))        # extends a known word, but the system is at ("b",)
        self.assertEqual(counts(s), (3, 6))   # so it resets and runs all three symbols
        s.asked.query(("a", "b", "a", "wait"))  # now it continues the current run
        self.assertEqual(counts(s), (3, 7))

    def test_empty_word_executes_nothing(self):
        s = toy_stack()
        self.assertEqual(s.asked.query(()), ())
        self.assertEqual(counts(s), (0, 0))
        self.assertEqual(s.asked.queries, 0)

    def test_a_changed_answer_is_reported_as_non_determinism(self):
        flaky = dict(TOY)
        s = filters.stack(filters.MealySystem(flaky, "A"))
        s.asked.query(("a", "wait"))
        s.asked.query(("b",))
        flaky[("B", "wait")] = ("quiet", "B")
        with self.assertRaises(NonDeterminism) as caught:
            s.asked.query(("a", "wait", "b"))
        self.assertEqual(caught.exception.word, ("a", "wait"))
        self.assertEqual(caught.exception.before, ("eps", "cb"))


class ErrSinkTest(unittest.TestCase):
    def test_execution_stops_at_the_first_err(self):
        s = toy_stack()
        self.assertEqual(s.asked.query(("x", "a", "b")), (ERR, ERR, ERR))
        self.assertEqual(counts(s), (1, 1))
        self.assertEqual(s.err_sink.saved_steps, 2)

    def test_extensions_of_an_err_word_never_execute_not_even_a_reset(self):
        s = toy_stack()
        s.asked.query(("a", "a"))           # err at the second symbol
        s.asked.query(("b",))               # moves the current run elsewhere
        self.assertEqual(counts(s), (2, 3))
        self.assertEqual(s.asked.query(("a", "a", "wait", "b")), ("eps", ERR, ERR, ERR))
        self.assertEqual(s.asked.query(("a", "a", "x")), ("eps", ERR, ERR))
        self.assertEqual(counts(s), (2, 3))
        self.assertEqual(s.err_sink.answered, 2)

    def test_err_sink_alone_without_the_tree(self):
        executed = filters.SystemCounter(filters.MealySystem(TOY, "A"))
        sink = filters.ErrSink(executed)
        sink.query(("x", "a"))
        sink.query(("x", "b", "b"))
        sink.query(("x",))
        self.assertEqual((executed.resets, executed.steps), (1, 1))

    def test_extending_a_current_run_into_err_stores_the_whole_word(self):
        s = toy_stack()
        s.asked.query(("a", "wait"))
        s.asked.query(("a", "wait", "a", "b"))   # lazy extension; err at "a"
        self.assertEqual(counts(s), (1, 3))
        s.asked.query(("b",))
        self.assertEqual(s.asked.query(("a", "wait", "a", "wait")), ("eps", "cb", ERR, ERR))
        self.assertEqual(counts(s), (2, 4))
        self.assertEqual(s.err_sink.err_runs[("a", "wait", "a")], ("eps", "cb", ERR))


class CounterTest(unittest.TestCase):
    def test_system_counter_counts_resets_steps_and_waits(self):
        executed = filters.SystemCounter(filters.MealySystem(TOY, "A"))
        executed.query(("a", "wait", "wait"))
        executed.extend(("a", "wait", "wait"), ("b", "wait"))
        executed.query(("wait",))
        self.assertEqual((executed.resets, executed.steps, executed.waits), (2, 6, 4))

    def test_system_counter_refuses_an_extension_of_another_run(self):
        executed = filters.SystemCounter(filters.MealySystem(TOY, "A"))
        executed.query(("a",))
        with self.assertRaises(AssertionError):
            executed.extend(("b",), ("a",))

    def test_ask_counter_counts_queries_and_symbols(self):
        s = toy_stack()
        s.asked.query(("a", "b"))
        s.asked.query(("a",))
        s.asked.extend(("a",), ("b", "b"))
        self.assertEqual((s.asked.queries, s.asked.symbols), (2, 5))

    def test_step_wise_use_from_aalpy_is_one_asked_query_and_one_run(self):
        s = toy_stack()
        s.sul.pre()
        outputs = [s.sul.step(i) for i in ("a", "wait", "wait", "b")]
        s.sul.post()
        self.assertEqual(outputs, ["eps", "cb", "quiet", "eps"])
        self.assertEqual((s.asked.queries, s.asked.symbols), (1, 4))
        self.assertEqual(counts(s), (1, 4))
        self.assertEqual(s.sul.query(("a", "wait")), ["eps", "cb"])
        self.assertEqual(counts(s), (1, 4))


class ContractTest(unittest.TestCase):
    def write(self, directory, text):
        path = Path(directory) / "m.dot"
        path.write_text(textwrap.dedent(text))
        return path

    def test_hand_written_models_parse_and_aalpy_reads_the_same(self):
        for dot in sorted((HERE / "models").glob("*.dot")):
            model = dotmodel.parse_dot(dot)
            mealy = dotmodel.check_aalpy_reads_the_same(model, dot)
            self.assertIsNone(dotmodel.equivalent_to_aalpy(model, mealy))
            self.assertEqual(model.minimal_size(), len(model.states))
            dotmodel.load_sidecar(dot)

    def test_duplicate_edge_and_non_sink_err_are_refused(self):
        head = 'digraph m {\ns0 [label="s0"];\nserr [label="serr"];\n'
        tail = ('serr -> serr [label="go/err"];\nserr -> serr [label="wait/err"];\n'
                '__start0 [label="", shape=none];\n__start0 -> s0 [label=""];\n}\n')
        with TemporaryDirectory() as d:
            ok = self.write(d, head + 's0 -> s0 [label="go/eps"];\ns0 -> serr [label="wait/err"];\n' + tail)
            dotmodel.parse_dot(ok)
            dup = self.write(d, head + 's0 -> s0 [label="go/eps"];\ns0 -> serr [label="go/err"];\n'
                             's0 -> s0 [label="wait/quiet"];\n' + tail)
            with self.assertRaisesRegex(dotmodel.ContractError, "second edge"):
                dotmodel.parse_dot(dup)
            leaky = self.write(d, head + 's0 -> serr [label="go/eps"];\ns0 -> s0 [label="wait/quiet"];\n'
                               + tail.replace('serr -> serr [label="go/err"]', 'serr -> s0 [label="go/err"]'))
            with self.assertRaisesRegex(dotmodel.ContractError, "not an err sink"):
                dotmodel.parse_dot(leaky)


class AalpyGlueTest(unittest.TestCase):
    def test_learned_models_are_equivalent_and_learning_uses_the_stack(self):
        import compare

        for dot in sorted((HERE / "models").glob("*.dot")):
            model = dotmodel.parse_dot(dot)
            mealy = dotmodel.check_aalpy_reads_the_same(model, dot)
            side = dotmodel.load_sidecar(dot)
            for algorithm in compare.ALGORITHMS:
                for oracle in compare.ORACLES:
                    row = compare.learn_one(model, mealy, side, algorithm, oracle)
                    self.assertTrue(row["equivalent"], row)
                    self.assertGreater(row["executed_queries"], 0)
                    self.assertLessEqual(row["executed_queries"], row["asked_queries"])

    def test_aalpy_default_caching_rewires_the_oracle(self):
        """The caveat this harness works around: with its default cache flag, run_Lstar wraps
        the SUL in CacheSUL and assigns it to eq_oracle.sul."""
        from aalpy.base.SUL import CacheSUL
        from aalpy.learning_algs import run_Lstar
        from aalpy.oracles import WMethodEqOracle

        s = toy_stack()
        eq = WMethodEqOracle(["a", "b", "x", "wait"], s.sul, max_number_of_states=4)
        run_Lstar(["a", "b", "x", "wait"], s.sul, eq, "mealy", print_level=0)
        self.assertIsInstance(eq.sul, CacheSUL)
        self.assertIs(eq.sul.sul, s.sul)

    def test_distinguisher_bound_oracle_finds_a_wrong_output_deep_in_the_machine(self):
        from aalpy.utils import load_automaton_from_file
        from eq_oracles import DistinguisherBoundEqOracle

        dot = HERE / "models" / "CountDownTimer.dot"
        with TemporaryDirectory() as d:
            wrong = Path(d) / "wrong.dot"
            wrong.write_text(dot.read_text().replace("s3 -> s3 [label=\"wait/quiet\"]",
                                                     "s3 -> s3 [label=\"wait/onFinish\"]"))
            hypothesis = load_automaton_from_file(str(wrong), "mealy")
        model = dotmodel.parse_dot(dot)
        s = filters.stack(filters.MealySystem(model.transitions, model.initial))
        oracle = DistinguisherBoundEqOracle(model.inputs, s.sul, bound=2)
        cex = oracle.find_cex(hypothesis)
        self.assertIsNotNone(cex)
        self.assertNotEqual(model.run(cex), tuple(hypothesis.execute_sequence(hypothesis.initial_state, cex)))
        self.assertIsNone(DistinguisherBoundEqOracle(model.inputs, s.sul, bound=2).find_cex(
            load_automaton_from_file(str(dot), "mealy")))

    def test_distinguisher_bound_oracle_checks_quiet_loops_only_when_asked(self):
        """A system where waiting quietly at s0 disables start: skipping the hypothesis's quiet
        self-loop (optimisation (a)) accepts the wrong model; checking it finds the difference."""
        from aalpy.utils import load_automaton_from_file
        from eq_oracles import DistinguisherBoundEqOracle

        dot = HERE / "models" / "CountDownTimer.dot"
        with TemporaryDirectory() as d:
            changed = Path(d) / "changed.dot"
            changed.write_text(dot.read_text()
                               .replace('s0 -> s0 [label="wait/quiet"];',
                                        's0 -> s5 [label="wait/quiet"];\n'
                                        's5 -> serr [label="start/err"];\n'
                                        's5 -> s5 [label="cancel/eps"];\n'
                                        's5 -> s5 [label="wait/quiet"];')
                               .replace('serr [label="serr"];', 's5 [label="s5"];\nserr [label="serr"];'))
            system = dotmodel.parse_dot(changed)
        hypothesis = load_automaton_from_file(str(dot), "mealy")
        s = filters.stack(filters.MealySystem(system.transitions, system.initial))
        self.assertIsNone(DistinguisherBoundEqOracle(system.inputs, s.sul, bound=2).find_cex(hypothesis))
        cex = DistinguisherBoundEqOracle(system.inputs, s.sul, bound=2,
                                         quiet_is_noop=False).find_cex(hypothesis)
        self.assertIsNotNone(cex)
        self.assertNotEqual(system.run(cex), tuple(hypothesis.execute_sequence(hypothesis.initial_state, cex)))


if __name__ == "__main__":
    unittest.main()
