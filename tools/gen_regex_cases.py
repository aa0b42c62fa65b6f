#!/usr/bin/env python3
"""Writes tests/data/regex_cases.json: what TensorFlow 2.21's regex ops
(RegexFullMatch and RegexReplace, i.e. RE2) give for a table of patterns,
inputs and rewrites. Run once with TF's pip package, outside the repo's
tests (which never need TF):

    /work/tfvenv/bin/python tools/gen_regex_cases.py

Strings are stored as JSON text holding one character per byte (latin-1),
so invalid UTF-8 round-trips exactly. tests/python/test_regex_ops.py runs
every case through tfe and compares."""

from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "regex_cases.json"

WORDS = ["", "a", "abc", "ABC", "aBc", "abcabc", "a\nb", "hello world", "x1y22z333",
         "caf\u00e9".encode().decode("latin-1"), "\u03b1\u03b2\u03b3".encode().decode("latin-1"),
         " \t\r\n", "foo.bar", "a_b-c", "\xff", "\xed\xa0\x80", "\xe2\x82", "ab\xffcd"]

# (pattern, inputs) for full match; inputs default to WORDS.
FULL: list[tuple[str, list[str] | None]] = [
    ("", None), ("a", None), ("abc", None), ("(?i)abc", None), ("a.c", None), ("(?s)a.b", None),
    ("a\\nb", None), (".*", None), (".+", None), ("(?s).*", None), ("[a-c]+", None),
    ("[^a-c]+", None), ("[[:alpha:]]+", None), ("[[:alnum:]_]+", None), ("[[:space:]]+", None),
    ("\\s+", None), ("\\S+", None), ("\\w+", None), ("\\W+", None), ("\\d+", None), ("\\D+", None),
    ("[[:^alpha:]]+", None), ("[[:punct:]]+", None), ("\\pL+", None), ("\\p{L}+", None),
    ("\\p{Lu}+", None), ("\\p{Ll}+", None), ("\\p{Greek}+", None), ("\\p{Latin}+", None),
    ("\\PL+", None), ("\\p{^L}+", None), ("\\pN+", None), ("\\p{Nd}+", None), ("\\p{P}+", None),
    ("\\p{S}+", None), ("\\p{Z}+", None), ("[\\p{L}\\d]+", None), ("(?i)\\p{Lu}+", None),
    ("\\x{e9}", None), ("caf\\x{e9}", None), ("caf.", None),
    ("(?i)CAF\u00c9".encode().decode("latin-1"), None),
    ("a|ab|abc", None), ("(a|b)*c", None), ("a{2}", None), ("(abc){2}", None), ("(abc){1,2}", None),
    ("a{0,}", None), ("a+?", None), ("a*?", None), ("^abc$", None), ("^$", None),
    ("\\Aabc\\z", None), ("(?m)^a$\\n^b$", None), ("a\\b\\nb", None), ("\\bab", None),
    ("x\\d+y\\d+z\\d+", None), ("[^\\n]+", None), ("[^a]+", None), ("\\C", None),
    (".", None), ("..", None), ("...", None), ("[^x]", None), ("\\D", None), ("\\p{Any}", None),
    ("(?U)a+", None), ("foo\\.bar", None), ("[a-z_\\-]+", None), ("\\Q.\\E.*", None),
    ("(?i)(?:ABC)+", None), ("(?P<x>a)(?P<y>b)c", None), ("[\\x00-\\x7f]+", None),
    ("[\\x{80}-\\x{10FFFF}]+", None), ("ab\\xffcd", None), ("ab.cd", None), ("(?s:.)", None),
    ("(a*)*", None), ("(a*)+$", None), ("(?i)k", ["k", "K", "\u212a".encode().decode("latin-1")]),
    ("(?i)s", ["s", "S", "\u017f".encode().decode("latin-1")]),
    ("(?i)\u03c3".encode().decode("latin-1"), ["\u03a3".encode().decode("latin-1"),
                                               "\u03c2".encode().decode("latin-1")]),
    ("(a*)*b", ["a" * 5000, "a" * 5000 + "b"]), ("(x+x+)+y", ["x" * 3000]),
    ("(a|aa)+", ["a" * 4000]), ("a?" * 25 + "a" * 25, ["a" * 25]),
    ("[[:upper:]]", ["A", "a"]), ("(?i)[[:upper:]]", ["A", "a"]), ("[[:word:]]+", ["a_1", "-"]),
    ("\\_\\-\\#\\ \\!", ["_-# !"]), ("\\101\\102", ["AB"]), ("\\x41\\x{42}", ["AB"]),
    ("\\t\\v\\f\\a", ["\t\v\f\a"]), ("\\s", ["\v", " "]), ("[\\d-z]+", ["1-z"]),
    ("[]a]+", ["]a"]), ("[^]a]", ["]", "b"]), ("a{,2}", ["a{,2}", "aa"]), ("a{", ["a{"]),
    ("x*", ["", "xxx"]), ("(?i)a(?-i)b", ["Ab", "AB"]), ("a(?i)b|c", ["aB", "C"]),
    ("(|a)+", ["aa"]), ("^*a", ["a"]), ("$+", [""]), ("(?)a", ["a"]),
    ("(?P<n>a)(?P<n>b)", ["ab"]), ("(" * 200 + "a" + ")" * 200, ["a"]),
    ("\\p{Han}+", ["\u4e2d\u6587".encode().decode("latin-1")]),
    ("\\p{Cyrillic}+", ["\u043f\u0440\u0438".encode().decode("latin-1")]),
    ("\\p{Arabic}", ["\u0627".encode().decode("latin-1")]),
    ("\\p{Thai}", ["\u0e01".encode().decode("latin-1")]),
    ("\\pZ{3}", ["   "]), ("\\w{1000}", ["a" * 1000]), (".{1000}", ["a" * 999]),
]

ERRORS = ["(abc", "abc)", "[abc", "a**", "a*+", "*a", "a|*", "(?i)*", "a{1001}", "a{2,1}",
          "a{2,1}?", "((a{10}){10}){11}", "x{2}{3}", "\\1", "(a)\\1", "\\8", "\\Z", "\\E",
          "(?=a)", "(?!a)", "(?<=a)", "(?<n>a)", "(?P=n)", "(?P<>a)", "(?P<n!>a)", "(?P<n",
          "(?i-)a", "(?x)", "(?#c)", "(?i", "(?:", "\\p{Foo}", "\\p{L", "\\p", "[[:foo:]]",
          "[z-a]", "[a-\\d]", "a\\", "\\x{110000}", "\\x", "\\xg", "\\x{zz}", "\\x{",
          "\\pL{1000}", "[\\p{L}\\d]{1000}", "(?P<n>a", "\\Q\\E*",
          # Where RE2's size budget ends (these compile or not as in RE2).
          "\\pL{200}", "\\pL{500}", "\\p{Lu}{500}", "\\p{Lu}{1000}", "\\pP{1000}",
          "\\p{Greek}{1000}", "(?i)\\pL{200}"]

# (pattern, inputs, rewrite) for RegexReplace, each with replace_global
# true and false.
REPLACE: list[tuple[str, list[str], str]] = [
    ("a", ["banana", "", "xyz"], "o"),
    ("(\\w+) (\\w+)", ["hello world", "a b c d"], "\\2 \\1"),
    ("", ["abc", "", "caf\u00e9".encode().decode("latin-1"), "a\xffb", "\xe2\x82"], "-"),
    ("a*", ["baaac", "", "aaa"], "-"),
    ("b*", ["abc", "bbb"], "-"),
    ("x*", ["\u03b1\u03b2".encode().decode("latin-1")], "|"),
    ("(b)(a)", ["baba"], "\\0|\\1\\2\\\\"),
    ("a", ["aaa"], "\\1"),
    ("a", ["aaa"], "b\\x"),
    ("a", ["aaa"], "b\\"),
    ("(a)|b", ["ab"], "[\\1]"),
    ("^", ["abc", ""], "X"),
    ("$", ["abc", ""], "X"),
    ("\\b", ["ab cd"], "|"),
    ("\\B", ["ab cd"], "|"),
    ("(?m)^", ["a\nb\n"], ">"),
    ("(?m)$", ["a\nb\n"], "<"),
    ("\\s+", ["  a  b  "], " "),
    ("<[^>]+>", ["Text with tags.<br /><b>contains html</b>"], " "),
    ("(\\d+)", ["a1b22c333"], "<\\1>"),
    ("(a|)+", ["aa"], "<\\0|\\1>"),
    ("(|a)+", ["aa"], "<\\0|\\1>"),
    ("(a|ab)(c|bcd)(d*)", ["abcd"], "<\\1|\\2|\\3>"),
    ("(a*)*", ["aaa", "b"], "<\\1>"),
    ("(a*)+", ["aaa", "b"], "<\\1>"),
    ("(a*)+b", ["aba"], "<\\1>"),
    ("(a*?)*", ["aa"], "<\\1>"),
    ("(a?)*?b", ["xabc"], "<\\1>"),
    ("(a+)(a*)", ["aaa"], "<\\1|\\2>"),
    ("(a+?)(a*)", ["aaa"], "<\\1|\\2>"),
    ("(a{2,3}?)", ["aaaa"], "<\\1>"),
    ("(?U)(a+)", ["aaa"], "<\\1>"),
    ("(a??)b", ["ab"], "<\\1>"),
    ("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", ["abcdefghij"], "\\9\\8\\1\\0"),
    ("(?i)A", ["aAa"], "x"),
    (".", ["a\xffb", "\xed\xa0\x80x"], "."),
    ("[^a]", ["b\xffa"], "#"),
    ("\\pL", ["1a\u00e9".encode().decode("latin-1")], "L"),
    ("(\\w)(\\w)?", ["abc"], "[\\2]"),
    ("a|", ["bab"], "-"),
    # Empty matches between the bytes of a character (RE2 searches bytes).
    ("\\B", ["Acb1\u00c9".encode().decode("latin-1"),
              "x\u03b1A".encode().decode("latin-1")], "<>"),
    ("a*\\B", ["bA\u00e9a".encode().decode("latin-1")], "<>"),
    ("(?P<g>\\B)+?", ["A_\u00c9a\n 1".encode().decode("latin-1")], "<\\1>"),
    ("|a", ["bab"], "-"),
]


def _b(s: str) -> bytes:
    return s.encode("latin-1")


def _s(b: bytes) -> str:
    return b.decode("latin-1")


def _msg(e: Exception) -> str:
    m = str(e).split("\n")[0]
    m = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", m)
    return re.sub(r"\s*\[Op:[A-Za-z]+\].*$", "", m)


def main() -> None:
    cases: list[dict[str, object]] = []
    for pat, ins in FULL:
        inputs = ins if ins is not None else WORDS
        case: dict[str, object] = {"op": "RegexFullMatch", "pattern": pat, "input": inputs}
        try:
            r = tf.raw_ops.RegexFullMatch(input=np.array([_b(x) for x in inputs], dtype=object),
                                          pattern=_b(pat))
            case["output"] = [bool(v) for v in r.numpy()]
        except tf.errors.OpError as e:
            case["error"] = {"class": type(e).__name__, "msg": _msg(e)}
        cases.append(case)
    for pat in ERRORS:
        case = {"op": "RegexFullMatch", "pattern": pat, "input": ["a"]}
        try:
            r = tf.raw_ops.RegexFullMatch(input=np.array([b"a"], dtype=object), pattern=_b(pat))
            case["output"] = [bool(v) for v in r.numpy()]
        except tf.errors.OpError as e:
            case["error"] = {"class": type(e).__name__, "msg": _msg(e)}
        cases.append(case)
    for pat, ins, rw in REPLACE:
        for glob in (True, False):
            case = {"op": "RegexReplace", "pattern": pat, "input": ins, "rewrite": rw,
                    "replace_global": glob}
            try:
                r = tf.raw_ops.RegexReplace(input=np.array([_b(x) for x in ins], dtype=object),
                                            pattern=_b(pat), rewrite=_b(rw), replace_global=glob)
                case["output"] = [_s(v) for v in r.numpy()]
            except tf.errors.OpError as e:
                case["error"] = {"class": type(e).__name__, "msg": _msg(e)}
            cases.append(case)
    # Non-scalar pattern / rewrite.
    for op, kw in (("RegexFullMatch", {"pattern": np.array([b"a"], dtype=object)}),
                   ("RegexReplace", {"pattern": np.array([b"a", b"b"], dtype=object),
                                     "rewrite": b"x"}),
                   ("RegexReplace", {"pattern": b"a",
                                     "rewrite": np.array([[b"x"]], dtype=object)})):
        case = {"op": op, "input": ["a"],
                "nonscalar": {k: (list(np.shape(v)) if isinstance(v, np.ndarray) else None)
                              for k, v in kw.items()}}
        try:
            getattr(tf.raw_ops, op)(input=np.array([b"a"], dtype=object), **kw)
            raise SystemExit("expected an error")
        except tf.errors.OpError as e:
            case["error"] = {"class": type(e).__name__, "msg": _msg(e)}
        cases.append(case)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": cases}, indent=1,
                              ensure_ascii=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
