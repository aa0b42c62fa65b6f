/* tfe's regex engine (csrc/core/regex.c): syntax, matching, submatches,
 * replacement and errors, with RE2's results (checked against TF 2.21's
 * RE2-backed ops; tests/data/regex_cases.json holds the wider table that
 * test_regex_ops.py runs through the ops). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/regex.h"
#include "tfe_test.h"

static tfe_regex* comp(const char* pat) {
  char err[256];
  tfe_regex_err code;
  tfe_regex* re = tfe_regex_compile(pat, strlen(pat), &code, err, sizeof err);
  if (re == NULL) TFE_FAIL("compile /%s/: %s", pat, err);
  CHECK_EQ_INT(code, TFE_REGEX_OK);
  return re;
}

/* Full match of text (NUL-terminated) against pat. */
static int fm(const char* pat, const char* text) {
  tfe_regex* re = comp(pat);
  int r = tfe_regex_full_match(re, NULL, text, strlen(text));
  tfe_regex_free(re);
  CHECK(r >= 0);
  return r;
}

#define YES(p, t)                                                   \
  do {                                                              \
    if (fm(p, t) != 1) TFE_FAIL("/%s/ should fully match \"%s\"", p, t); \
  } while (0)
#define NO(p, t)                                                        \
  do {                                                                  \
    if (fm(p, t) != 0) TFE_FAIL("/%s/ should not fully match \"%s\"", p, t); \
  } while (0)

/* Unanchored search; want is "b-e b-e ..." for groups 0.., "-" for an
 * unset group, or NULL for no match. */
static void srch(const char* pat, const char* text, const char* want) {
  tfe_regex* re = comp(pat);
  int64_t caps[20];
  char got[256] = "";
  int ng = tfe_regex_num_groups(re) + 1, i;
  int r = tfe_regex_search(re, NULL, text, strlen(text), 0, 0, 0, caps,
                           ng > 10 ? 10 : ng);
  tfe_regex_free(re);
  if (want == NULL) {
    if (r != 0) TFE_FAIL("/%s/ should not be found in \"%s\"", pat, text);
    return;
  }
  if (r != 1) TFE_FAIL("/%s/ should be found in \"%s\"", pat, text);
  for (i = 0; i < ng && i < 10; i++) {
    char one[48];
    if (caps[2 * i] < 0) {
      snprintf(one, sizeof one, "%s-", i ? " " : "");
    } else {
      snprintf(one, sizeof one, "%s%lld-%lld", i ? " " : "",
               (long long)caps[2 * i], (long long)caps[2 * i + 1]);
    }
    strcat(got, one);
  }
  if (strcmp(got, want) != 0) {
    TFE_FAIL("/%s/ in \"%s\": groups %s, want %s", pat, text, got, want);
  }
}

static void repl(const char* pat, const char* text, const char* rw, int global,
                 const char* want) {
  tfe_regex* re = comp(pat);
  char* out = NULL;
  size_t n = 0;
  int64_t c = tfe_regex_replace(re, NULL, text, strlen(text), rw, strlen(rw),
                                global, &out, &n);
  tfe_regex_free(re);
  CHECK(c >= 0);
  if (c == 0) {
    CHECK(out == NULL);
    if (strcmp(text, want) != 0) {
      TFE_FAIL("replace /%s/ in \"%s\" by \"%s\": unchanged, want \"%s\"", pat,
               text, rw, want);
    }
    return;
  }
  if (n != strlen(want) || memcmp(out, want, n) != 0) {
    TFE_FAIL("replace /%s/ in \"%s\" by \"%s\": \"%.*s\", want \"%s\"", pat,
             text, rw, (int)n, out, want);
  }
  tfe_free(out);
}

static void bad(const char* pat, tfe_regex_err want_code, const char* want) {
  char err[256];
  tfe_regex_err code;
  tfe_regex* re = tfe_regex_compile(pat, strlen(pat), &code, err, sizeof err);
  if (re != NULL) TFE_FAIL("/%s/ should not compile", pat);
  CHECK_EQ_INT(code, want_code);
  if (strcmp(err, want) != 0) {
    TFE_FAIL("/%s/: error \"%s\", want \"%s\"", pat, err, want);
  }
}

TEST(literals_and_escapes) {
  YES("abc", "abc");
  NO("abc", "abd");
  NO("abc", "abcd");
  YES("", "");
  NO("", "a");
  YES("a\\.b", "a.b");
  NO("a\\.b", "axb");
  YES("\\t\\n\\r\\f\\v\\a", "\t\n\r\f\v\a");
  YES("\\x41\\x{42}\\x{1F600}", "AB\xF0\x9F\x98\x80");
  YES("\\101\\12", "A\n"); /* octal */
  YES("\\\\", "\\");
  YES("\\_\\-\\#", "_-#");
  YES("\\Q.*+\\E", ".*+");
  YES("\\Qab\\E+", "abbb");
  YES("\xC3\xA9t\xC3\xA9", "\xC3\xA9t\xC3\xA9");
}

TEST(dot_and_newline) {
  YES("a.c", "abc");
  NO("a.c", "a\nc");
  YES("(?s)a.c", "a\nc");
  YES("(?s:.)", "\n");
  YES("...", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"); /* 3 code points */
  NO("..", "\xC3\xA9");                               /* 1 code point */
}

TEST(classes) {
  YES("[abc]+", "cab");
  NO("[abc]", "d");
  YES("[a-z0-9_]+", "az_09");
  YES("[^a-z]", "A");
  NO("[^a-z]", "q");
  YES("[^a]", "\n"); /* negated classes include newline */
  YES("[]a]+", "]a");
  YES("[a-]+", "-a");
  YES("[\\d-z]+", "1-z");
  YES("\\d+", "0123456789");
  NO("\\d", "\xD9\xA3"); /* Arabic-Indic three: \d is ASCII */
  YES("\\w+", "aZ_9");
  NO("\\w", "\xC3\xA9");
  YES("\\s+", " \t\n\f\r");
  NO("\\s", "\v"); /* RE2's \s has no \v */
  YES("[[:space:]]", "\v");
  YES("\\D\\W\\S", "a-b");
  YES("[[:alpha:]]+[[:digit:]]+", "abc123");
  YES("[[:^alpha:]]", "1");
  YES("[[:upper:][:punct:]]+", "A!B?");
  YES("[[:xdigit:]]+", "09afAF");
  YES("[\\x{100}-\\x{200}]", "\xC4\x80");
  YES("[^\\x00-\\x{10FFFF}]|x", "x");
  NO("[^\\x00-\\x{10FFFF}]", "a");
}

TEST(unicode_tables) {
  YES("\\pL+", "abc\xC3\xA9\xCE\xB1\xE4\xB8\xAD");
  YES("\\p{L}", "Z");
  NO("\\pL", "1");
  YES("\\p{Lu}\\p{Ll}", "Ab");
  NO("\\p{Lu}", "a");
  YES("\\p{N}\\p{Nd}", "\xC2\xBD" "5"); /* one-half is N but not Nd */
  NO("\\p{Nd}", "\xC2\xBD");
  YES("\\p{P}\\p{S}\\p{Z}", "!+ ");
  YES("\\p{Greek}+", "\xCE\xB1\xCE\xB2");
  NO("\\p{Greek}", "a");
  YES("\\p{Han}", "\xE4\xB8\xAD");
  YES("\\PL", "1");
  YES("\\p{^L}", "1");
  YES("\\P{^L}", "a");
  YES("[\\p{Greek}\\d]+", "\xCE\xB1" "1");
  YES("\\p{Any}", "\xF0\x9F\x98\x80");
  YES("\\pN", "7");
}

TEST(anchors_and_boundaries) {
  srch("^abc", "abcabc", "0-3");
  srch("abc$", "abcabc", "3-6");
  srch("^b", "a\nb", NULL);
  srch("(?m)^b", "a\nb", "2-3");
  srch("(?m)a$", "a\nb", "0-1");
  srch("a$", "a\n", NULL); /* $ is end of text only, as \z */
  srch("\\Aa", "aa", "0-1");
  srch("a\\z", "aa", "1-2");
  srch("\\bfoo\\b", "a foo b", "2-5");
  srch("\\bfoo\\b", "afoob", NULL);
  srch("\\Boo\\B", "foob", "1-3");
  srch("^", "", "0-0");
  srch("$", "ab", "2-2");
}

TEST(groups_and_alternation) {
  srch("(a)(b)?", "a", "0-1 0-1 -");
  srch("(a|ab)(c|bcd)(d*)", "abcd", "0-4 0-1 1-4 4-4");
  srch("(?:a|b)+", "xabba", "1-5");
  srch("(?P<first>\\w+) (?P<last>\\w+)", "Jane Doe", "0-8 0-4 5-8");
  srch("a|b|c", "xxc", "2-3");
  srch("(|a)+", "aa", "0-0 0-0");
  srch("(a|)+", "aa", "0-2 1-2");
  {
    tfe_regex* re = comp("(?P<year>\\d+)-(?P<mon>\\d+)");
    CHECK_EQ_INT(tfe_regex_num_groups(re), 2);
    CHECK_EQ_INT(tfe_regex_group_index(re, "year"), 1);
    CHECK_EQ_INT(tfe_regex_group_index(re, "mon"), 2);
    CHECK_EQ_INT(tfe_regex_group_index(re, "day"), -1);
    tfe_regex_free(re);
  }
}

TEST(repetition) {
  YES("a*", "");
  YES("a*", "aaa");
  YES("a+", "a");
  NO("a+", "");
  YES("ab?c", "ac");
  YES("a{3}", "aaa");
  NO("a{3}", "aa");
  YES("a{2,}", "aaaaa");
  NO("a{2,}", "a");
  YES("a{2,4}", "aaaa");
  NO("a{2,4}", "aaaaa");
  YES("a{0}b", "b");
  YES("(ab){2}", "abab");
  YES("a{,2}", "a{,2}"); /* not a repetition: literal text */
  YES("a{", "a{");
  srch("a+?", "aaa", "0-1");
  srch("a*?b", "aab", "0-3");
  srch("(a+)(a*)", "aaa", "0-3 0-3 3-3");
  srch("(a+?)(a*)", "aaa", "0-3 0-1 1-3");
  srch("(a{2,3}?)", "aaaa", "0-2 0-2");
  srch("(?U)(a+)", "aaa", "0-1 0-1");
  srch("(?U)(a+?)", "aaa", "0-3 0-3");
  srch("(a?\?)b", "ab", "0-2 0-1");
  srch("x*", "aaa", "0-0");
  NO("a{1000}", "a");
  NO("a{1000}", "aaa");
}

TEST(case_folding) {
  YES("(?i)abc", "AbC");
  NO("abc", "ABC");
  YES("(?i:a)b", "Ab");
  NO("(?i:a)b", "AB");
  YES("a(?i)b|c", "aB");
  YES("a(?i)b|c", "C");
  YES("(?i)k", "\xE2\x84\xAA"); /* Kelvin sign folds with k */
  YES("(?i)s", "\xC5\xBF");     /* long s */
  YES("(?i)\xC3\xA9", "\xC3\x89");
  YES("(?i)\xCF\x83", "\xCE\xA3"); /* sigma */
  YES("(?i)[a-c]+", "ABC");
  YES("(?i)[^a]", "b");
  NO("(?i)[^a]", "A");
  YES("(?i)\\p{Lu}", "a");
  YES("(?i)[[:upper:]]", "a");
  YES("(?i-i)a", "a");
  NO("(?i)(?-i)a", "A");
}

TEST(invalid_utf8_text) {
  /* A stray byte matches nothing but is skipped by search. */
  NO(".", "\xFF");
  NO("[^a]", "\x80");
  srch("b", "\xFF" "b", "1-2");
  srch(".+", "a\xFF" "bc", "0-1");
  /* Truncated sequence at the end. */
  NO(".", "\xE2\x82");
  srch("x", "\xE2\x82x", "2-3");
  /* Loosely formed sequences: one unit for "." (RE2 accepts them). */
  YES(".", "\xED\xA0\x80");
  YES("[^a]", "\xE0\x80\x80");
  NO("\\pL", "\xED\xA0\x80");
  YES("\\PL", "\xED\xA0\x80");
  NO("\\PL", "\xE0\x80\x80");
  repl("", "a\xFF", "-", 1, "-a-\xFF-");
  /* RE2 searches by bytes: an empty match can begin between the bytes of
   * a character, where \B holds (recorded from TF 2.21). */
  repl("\\B", "Acb1\xC3\x89", "<>", 1, "A<>c<>b<>1\xC3<>\x89<>");
  repl("a*\\B", "bA\xC3\xA9" "a", "<>", 1, "b<>A\xC3<>\xA9" "a");
  srch("\\B", "\xC3\xA9", "0-0");
  srch("x|\\B", "a\xC3\xA9", "2-2");
}

TEST(replace) {
  repl("a", "banana", "o", 1, "bonono");
  repl("a", "banana", "o", 0, "bonana");
  repl("(\\w+) (\\w+)", "hello world", "\\2 \\1", 1, "world hello");
  repl("(b)(a)", "baba", "\\0|\\1\\2\\\\", 1, "ba|ba\\ba|ba\\");
  repl("x", "abc", "y", 1, "abc");
  repl("", "abc", "-", 1, "-a-b-c-");
  repl("a*", "baaac", "-", 1, "-b-c-");
  repl("b*", "abc", "-", 1, "-a-c-");
  repl("", "", "x", 1, "x");
  repl("", "\xC3\xA9", "-", 1, "-\xC3\xA9-");
  repl("a", "aaa", "\\1", 1, "aaa");         /* no group 1: unchanged */
  repl("a", "aaa", "b\\x", 1, "bbb");        /* bad escape cuts rewrite */
  repl("a", "aaa", "b\\x", 0, "aaa");        /* ... and Replace gives up */
  repl("(a)|b", "ab", "[\\1]", 1, "[a][]");  /* unset group is empty */
  repl("^", "abc", "X", 1, "Xabc");
  repl("$", "abc", "X", 1, "abcX");
  repl("\\b", "ab cd", "|", 1, "|ab| |cd|");
  repl("(?m)^", "a\nb", ">", 1, ">a\n>b");
  CHECK_EQ_INT(tfe_regex_max_submatch("\\3x\\\\9\\1", 8), 3);
}

TEST(errors) {
  bad("(abc", TFE_REGEX_ERR_SYNTAX, "missing ): (abc");
  bad("abc)", TFE_REGEX_ERR_SYNTAX, "unexpected ): abc)");
  bad("[abc", TFE_REGEX_ERR_SYNTAX, "missing ]: [abc");
  bad("a**", TFE_REGEX_ERR_SYNTAX, "bad repetition operator: **");
  bad("a*+", TFE_REGEX_ERR_SYNTAX, "bad repetition operator: *+");
  bad("x{2}{3}", TFE_REGEX_ERR_SYNTAX, "bad repetition operator: {2}{3}");
  bad("*a", TFE_REGEX_ERR_SYNTAX, "no argument for repetition operator: *");
  bad("a|*", TFE_REGEX_ERR_SYNTAX, "no argument for repetition operator: *");
  bad("(?i)*", TFE_REGEX_ERR_SYNTAX, "no argument for repetition operator: *");
  bad("a{1001}", TFE_REGEX_ERR_SYNTAX, "invalid repetition size: {1001}");
  bad("a{2,1}", TFE_REGEX_ERR_SYNTAX, "invalid repetition size: {2,1}");
  bad("((a{10}){10}){11}", TFE_REGEX_ERR_SYNTAX, "invalid repetition size: {11}");
  bad("\\1", TFE_REGEX_ERR_SYNTAX, "invalid escape sequence: \\1");
  bad("(a)\\1", TFE_REGEX_ERR_SYNTAX, "invalid escape sequence: \\1");
  bad("\\Z", TFE_REGEX_ERR_SYNTAX, "invalid escape sequence: \\Z");
  bad("\\E", TFE_REGEX_ERR_SYNTAX, "invalid escape sequence: \\E");
  bad("(?=a)", TFE_REGEX_ERR_SYNTAX, "invalid perl operator: (?=");
  bad("(?!a)", TFE_REGEX_ERR_SYNTAX, "invalid perl operator: (?!");
  bad("(?<=a)", TFE_REGEX_ERR_SYNTAX, "invalid perl operator: (?<");
  bad("(?P=n)", TFE_REGEX_ERR_SYNTAX, "invalid perl operator: (?P");
  bad("(?i-)a", TFE_REGEX_ERR_SYNTAX, "invalid perl operator: (?i-)");
  bad("(?x)", TFE_REGEX_ERR_SYNTAX, "invalid perl operator: (?x");
  bad("(?P<>a)", TFE_REGEX_ERR_SYNTAX, "invalid named capture group: (?P<>");
  bad("(?P<n!>a)", TFE_REGEX_ERR_SYNTAX,
      "invalid named capture group: (?P<n!>");
  bad("\\p{Foo}", TFE_REGEX_ERR_SYNTAX,
      "invalid character class range: \\p{Foo}");
  bad("[[:foo:]]", TFE_REGEX_ERR_SYNTAX,
      "invalid character class range: [:foo:]");
  bad("[z-a]", TFE_REGEX_ERR_SYNTAX, "invalid character class range: z-a");
  bad("a\\", TFE_REGEX_ERR_SYNTAX, "trailing \\");
  bad("\\x{110000}", TFE_REGEX_ERR_SYNTAX,
      "invalid escape sequence: \\x{110000");
  bad("\xFF", TFE_REGEX_ERR_SYNTAX, "invalid UTF-8");
  bad("\\pL{1000}", TFE_REGEX_ERR_SYNTAX, "pattern too large - compile failed");
  bad("\\C", TFE_REGEX_ERR_UNSUPPORTED,
      "\\C (any single byte) is not supported by tfe's regex engine");
  {
    /* Groups nested past tfe's depth limit. */
    char deep[2100];
    memset(deep, '(', 1001);
    memset(deep + 1001, ')', 1001);
    deep[2002] = '\0';
    {
      tfe_regex_err code;
      CHECK(tfe_regex_compile(deep, strlen(deep), &code, NULL, 0) == NULL);
      CHECK_EQ_INT(code, TFE_REGEX_ERR_UNSUPPORTED);
    }
    deep[1000] = ')';
    deep[1000 + 1000] = '\0';
    memset(deep, '(', 1000);
    memset(deep + 1000, ')', 1000);
    deep[2000] = '\0';
    {
      tfe_regex* re = comp(deep);
      CHECK_EQ_INT(tfe_regex_full_match(re, NULL, "", 0), 1);
      tfe_regex_free(re);
    }
  }
  /* Accepted by RE2 too. */
  tfe_regex_free(comp(".{1000}"));
  tfe_regex_free(comp("\\pZ{1000}"));
  tfe_regex_free(comp("((a{10}){10}){10}"));
  tfe_regex_free(comp("(?)a"));
  tfe_regex_free(comp("(?P<n>a)(?P<n>b)"));
}

/* Patterns that take exponential time in a backtracking engine. */
TEST(pathological_linear) {
  size_t n = 20000, i;
  char* text = (char*)malloc(n + 2);
  tfe_regex* re;
  CHECK(text != NULL);
  memset(text, 'a', n);
  text[n] = '\0';
  re = comp("(a*)*b");
  CHECK_EQ_INT(tfe_regex_full_match(re, NULL, text, n), 0);
  CHECK_EQ_INT(tfe_regex_search(re, NULL, text, n, 0, 0, 0, NULL, 0), 0);
  tfe_regex_free(re);
  re = comp("(a|aa)+$");
  CHECK_EQ_INT(tfe_regex_full_match(re, NULL, text, n), 1);
  tfe_regex_free(re);
  re = comp("(x+x+)+y");
  memset(text, 'x', n);
  CHECK_EQ_INT(tfe_regex_search(re, NULL, text, n, 0, 0, 0, NULL, 0), 0);
  tfe_regex_free(re);
  /* a?{30}a{30} against 30 a's. */
  {
    char pat[256] = "";
    for (i = 0; i < 30; i++) strcat(pat, "a?");
    strcat(pat, "a{30}");
    re = comp(pat);
    memset(text, 'a', 30);
    CHECK_EQ_INT(tfe_regex_full_match(re, NULL, text, 30), 1);
    tfe_regex_free(re);
  }
  /* Scratch reuse across many strings. */
  re = comp("(\\w+)@(\\w+)\\.com");
  {
    tfe_regex_scratch* s = tfe_regex_scratch_new(re);
    int64_t caps[6];
    CHECK(s != NULL);
    for (i = 0; i < 1000; i++) {
      CHECK_EQ_INT(tfe_regex_search(re, s, "mail bob@example.com now", 24, 0,
                                    0, 0, caps, 3),
                   1);
      CHECK_EQ_INT(caps[2], 5);
      CHECK_EQ_INT(caps[3], 8);
    }
    tfe_regex_scratch_free(s);
  }
  tfe_regex_free(re);
  free(text);
}

TEST(api_edges) {
  tfe_regex_err code;
  char err[8];
  tfe_regex* re;
  tfe_regex_free(NULL);
  tfe_regex_scratch_free(NULL);
  CHECK(tfe_regex_compile(NULL, 3, &code, err, sizeof err) == NULL);
  CHECK_EQ_INT(code, TFE_REGEX_ERR_SYNTAX);
  /* A short error buffer gets a truncated, terminated message. */
  CHECK(tfe_regex_compile("(abc", 4, &code, err, sizeof err) == NULL);
  CHECK_EQ_INT((int)strlen(err), 7);
  re = tfe_regex_compile(NULL, 0, &code, NULL, 0);
  CHECK(re != NULL);
  CHECK_EQ_INT(tfe_regex_full_match(re, NULL, NULL, 0), 1);
  tfe_regex_free(re);
  /* A Unicode table name holding a NUL byte (found by fuzz_regex). */
  CHECK(tfe_regex_compile("\\p{C\0x}", 7, &code, NULL, 0) == NULL);
  CHECK_EQ_INT(code, TFE_REGEX_ERR_SYNTAX);
  CHECK(tfe_regex_compile("\\pC\\p\0", 6, &code, NULL, 0) == NULL);
  CHECK_EQ_INT(code, TFE_REGEX_ERR_SYNTAX);
  /* Patterns with a NUL byte inside. */
  re = tfe_regex_compile("a\0b", 3, &code, NULL, 0);
  CHECK(re != NULL);
  CHECK_EQ_INT(tfe_regex_full_match(re, NULL, "a\0b", 3), 1);
  CHECK_EQ_INT(tfe_regex_full_match(re, NULL, "a", 1), 0);
  tfe_regex_free(re);
}

TFE_TEST_MAIN
