#!/usr/bin/env python3
"""Writes one input of a scale family at size N to standard output.

Usage: families.py FAMILY N | --list
Each family grows one dimension that once made the checker or a reader superlinear, crash or
hang (the fuzzing campaign's findings F1-F9 and F13-F15, and helpers that call themselves,
whose analysis once doubled per level of calls); see bench/scale/run.sh.
`--list` prints each family's name, file extension and base size (the 1x input).
"""
import sys


def java_locals(n):
    body = "".join(f"    MediaPlayer p{i} = MediaPlayer.create(null, 1);\n" for i in range(n))
    return f"import android.media.MediaPlayer;\nclass A {{\n  void f() {{\n{body}  }}\n}}\n"


def kotlin_locals(n):
    body = "".join(f"    val mp{i} = MediaPlayer.create(null, 1)\n" for i in range(n))
    return f"import android.media.MediaPlayer\nfun f() {{\n{body}}}\n"


def java_fields(n):
    fields = "".join(f"MediaPlayer f{i} = new MediaPlayer();\n" for i in range(n))
    calls = "".join(f"f{i}.start();\n" for i in range(n))
    return ("import android.media.MediaPlayer;\nclass A extends android.app.Activity {\n"
            f"{fields}void onStart() {{\n{calls}}} }}\n")


def kotlin_properties(n):
    fields = "".join(f"val f{i} = MediaPlayer()\n" for i in range(n))
    calls = "".join(f"f{i}.start()\n" for i in range(n))
    return ("import android.media.MediaPlayer\nclass A : android.app.Activity() {\n"
            f"{fields}override fun onStart() {{\n{calls}}} }}\n")


def java_aliases(n):
    chain = "".join(f"MediaPlayer p{i} = c ? p{i - 1} : new MediaPlayer();\n" for i in range(1, n + 1))
    return ("import android.media.MediaPlayer;\nclass A { void f(boolean c) { "
            f"MediaPlayer p0 = new MediaPlayer();\n{chain}p{n}.start(); p0.prepare(); }} }}\n")


def java_listeners(n):
    second = ["pause", "stop"]
    lines = "".join(
        f"if (b == null) p.setOnPreparedListener(mp -> {{ p.start(); p.{second[i % 2]}(); }});\n"
        for i in range(n))
    return ("import android.media.MediaPlayer;\nclass A extends android.app.Activity { "
            "MediaPlayer p = new MediaPlayer();\nvoid onCreate(android.os.Bundle b) {\n"
            f"{lines}p.prepareAsync(); }} }}\n")


def java_flag_ifs(n):
    lines = "".join(
        f"if (c{i % 8}) {{ p.pause(); playing = false; }} else {{ p.start(); playing = true; p.getDuration(); }}\n"
        for i in range(n))
    params = ", ".join(f"boolean c{i}" for i in range(8))
    return ("import android.media.MediaPlayer;\nclass A { private boolean playing; "
            f"void f(MediaPlayer p, {params}) {{\n{lines}if (playing) p.pause(); }} }}\n")


def java_recursive_helpers(n):
    helpers = "".join(
        f"private int walk{i}(int d) {{ if (d <= 0) return 0; p.getDuration(); "
        f"return walk{i}(d - 1) + walk{i}(d - 2); }}\n"
        for i in range(n))
    calls = "".join(f"walk{i}(8);\n" for i in range(n))
    return ("import android.media.MediaPlayer;\nclass A { private MediaPlayer p = new MediaPlayer();\n"
            f"{helpers}void f() {{\n{calls}p.start(); }} }}\n")


def kotlin_elvis(n):
    chain = " ?: ".join(["a"] * n)
    return f"import android.media.MediaPlayer\nfun f(a: String?) {{ val s = {chain} }}\n"


def java_annotation_array(n):
    return ("import android.media.MediaPlayer;\n@SuppressWarnings(" + "{" * n + "}" * n + ")\n"
            "class A { void f() { MediaPlayer p = new MediaPlayer(); p.start(); } }\n")


def java_nested_classes(n):
    return ("import android.media.MediaPlayer;\n" + "class A { " * n
            + "void f() { MediaPlayer p = new MediaPlayer(); p.start(); } " + "} " * n + "\n")


def kotlin_paren_type(n):
    return ("import android.media.MediaPlayer\nclass A { val x: " + "(" * n + "MediaPlayer"
            + ")" * n + " = MediaPlayer()\n fun f() { x.start() } }\n")


def kotlin_templates(n):
    return "import android.media.MediaPlayer\nval s = " + '"${' * n + '"' + "}\"" * n + "\n"


def java_comment_nul(n):
    return ("import android.media.MediaPlayer;\nclass A { void f() { " + "/* " * n
            + "\0 } }\n")


def kotlin_comment_nul(n):
    return "import android.media.MediaPlayer\nfun f() { " + "/* " * n + "\0 }\n"


def java_broken_lambdas(n):
    line = "x -> " * 10 + "w v) { }\n"
    return ("import android.media.MediaPlayer;\nclass A {\npublic void f() { Object o = "
            + line * n + "}\n")


def kotlin_dollars(n):
    return "import android.media.MediaPlayer\nfun f() {\n" + "$" * n + "\n}\n"


def kotlin_unterminated_quotes(n):
    return ("import android.media.MediaPlayer\nfun f(a: String) { val s = \""
            + ("'" * 50 + "\n") * (n // 50) + "\n")


def typestate_sparse(n):
    """N states, each with one step of its own callin: a sparse model of N x N cells."""
    lines = ["typestate com.example.Sparse"]
    lines += [f"callin c{i}: m{i}()" for i in range(n)]
    lines.append("callin create: new() creates S0")
    for i in range(n):
        lines.append(f"state S{i}" + (" initial" if i == 0 else ""))
        lines.append(f"  c{i} -> S{(i + 1) % n}")
    return "\n".join(lines) + "\n"


def dot_sparse(n):
    edges = "".join(f"  {i} -> {i + 1}[label=c{i}];\n" for i in range(n))
    return "digraph {\n" + edges + "}\n"


def json_unknown_targets(n):
    states = ",\n".join(
        f'{{"name":"S{i}","callins":{{"go":{{"kind":"enabled","target":"X{i}"}}}}}}'
        for i in range(n))
    return ('{"format":"typestar/1","class":"com.example.J","callins":[{"name":"go","methods":'
            '[{"kind":"instance","name":"go","params":[]}]}],"initial":"S0","states":['
            + states + "]}\n")


def json_sparse(n):
    """The JSON twin of typestate_sparse: N states, each with one step of its own callin."""
    callins = ",".join(
        f'{{"name":"c{i}","methods":[{{"kind":"instance","name":"m{i}","params":[]}}]}}'
        for i in range(n))
    states = ",\n".join(
        f'{{"name":"S{i}","callins":{{"c{i}":{{"kind":"enabled","target":"S{(i + 1) % n}"}}}}}}'
        for i in range(n))
    return ('{"format":"typestar/1","class":"com.example.Sparse","callins":[' + callins
            + '],"initial":"S0","states":[' + states + "]}\n")


def typestate_many_errors(n):
    """N lines with a lexical error each (finding F15: every error was kept)."""
    return "typestate a.B\nstate S initial\n" + "%\n" * n


def typestate_chain(n):
    lines = ["typestate scale.Chain", "callin create: new() creates S0", "callin next: next()", ""]
    for i in range(n):
        lines.append(f"state S{i}" + (" initial" if i == 0 else ""))
        lines.append(f"  next -> S{i + 1}")
    lines.append(f"state S{n}")
    lines.append("  next error java.lang.IllegalStateException")
    return "\n".join(lines) + "\n"


# Each family: its generator, the file extension, and the base size (1x), large enough that
# process start-up does not dominate.
FAMILIES = {
    "java-tracked-locals": (java_locals, "java", 2000),
    "kotlin-tracked-locals": (kotlin_locals, "kt", 2000),
    "java-fields": (java_fields, "java", 500),
    "kotlin-properties": (kotlin_properties, "kt", 500),
    "java-aliases": (java_aliases, "java", 500),
    "java-listeners": (java_listeners, "java", 250),
    "java-flag-ifs": (java_flag_ifs, "java", 500),
    "java-recursive-helpers": (java_recursive_helpers, "java", 50),
    "kotlin-elvis": (kotlin_elvis, "kt", 12),
    "java-annotation-array": (java_annotation_array, "java", 5000),
    "java-nested-classes": (java_nested_classes, "java", 750),
    "kotlin-paren-type": (kotlin_paren_type, "kt", 5000),
    "kotlin-templates": (kotlin_templates, "kt", 128),
    "java-comment-nul": (java_comment_nul, "java", 5000),
    "kotlin-comment-nul": (kotlin_comment_nul, "kt", 5000),
    "java-broken-lambdas": (java_broken_lambdas, "java", 125),
    "kotlin-dollars": (kotlin_dollars, "kt", 8000),
    "kotlin-unterminated-quotes": (kotlin_unterminated_quotes, "kt", 10000),
    "typestate-chain": (typestate_chain, "typestate", 10000),
    "typestate-sparse": (typestate_sparse, "typestate", 250),
    "dot-sparse": (dot_sparse, "gv", 250),
    "json-unknown-targets": (json_unknown_targets, "json", 625),
    "json-sparse": (json_sparse, "json", 250),
    "typestate-many-errors": (typestate_many_errors, "typestate", 100000),
}

if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        for name, (_, ext, base) in FAMILIES.items():
            print(name, ext, base)
        sys.exit(0)
    if len(sys.argv) != 3 or sys.argv[1] not in FAMILIES:
        sys.exit("usage: families.py FAMILY N | --list; families: " + ", ".join(FAMILIES))
    sys.stdout.write(FAMILIES[sys.argv[1]][0](int(sys.argv[2])))
