#!/usr/bin/env python3
"""Writes one input of a scale family at size N to standard output.

Usage: families.py FAMILY N
Each family grows one dimension that once made the checker or a reader superlinear
(the fuzzing campaign's findings F1, F9, F13, and helpers that call themselves, whose
analysis once doubled per level of calls); see bench/scale/run.sh.
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


def typestate_chain(n):
    lines = ["typestate scale.Chain", "callin create: new() creates S0", "callin next: next()", ""]
    for i in range(n):
        lines.append(f"state S{i}" + (" initial" if i == 0 else ""))
        lines.append(f"  next -> S{i + 1}")
    lines.append(f"state S{n}")
    lines.append("  next error java.lang.IllegalStateException")
    return "\n".join(lines) + "\n"


FAMILIES = {
    "java-tracked-locals": (java_locals, "java"),
    "kotlin-tracked-locals": (kotlin_locals, "kt"),
    "java-fields": (java_fields, "java"),
    "kotlin-properties": (kotlin_properties, "kt"),
    "java-aliases": (java_aliases, "java"),
    "java-listeners": (java_listeners, "java"),
    "java-flag-ifs": (java_flag_ifs, "java"),
    "java-recursive-helpers": (java_recursive_helpers, "java"),
    "kotlin-elvis": (kotlin_elvis, "kt"),
    "typestate-chain": (typestate_chain, "typestate"),
}

if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        for name, (_, ext) in FAMILIES.items():
            print(name, ext)
        sys.exit(0)
    if len(sys.argv) != 3 or sys.argv[1] not in FAMILIES:
        sys.exit("usage: families.py FAMILY N | --list; families: " + ", ".join(FAMILIES))
    sys.stdout.write(FAMILIES[sys.argv[1]][0](int(sys.argv[2])))
